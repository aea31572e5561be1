import type { Clock } from './clock';
import type { ServiceConfig } from './config';
import type { ServiceDatabase } from './db/database';
import type { AccountDeletion } from './identity/account-deletion';
import type { Identity } from './identity';
import type { Serving } from './serving';
import type { GuestRole } from './guest-role';

/** A conversation event as streamed: `id:`, `event:` and the JSON `data:`. */
export interface StreamEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** Conversation events shared by every process (cluster/event-feed.ts). */
export interface SharedEvents {
  /** Persists one conversation's events, in the order they are logged. */
  mirror(conversationId: string): (event: StreamEvent) => void;
  /** Resolves once every event logged so far is stored, so any process's stream can replay it. */
  flushed(): Promise<void>;
  /** The replay after `lastEventId` (turns/event-log.ts rules), then live events. */
  subscribe(
    conversationId: string,
    listener: (event: StreamEvent) => void,
    lastEventId?: string | null,
  ): Promise<{ replayed: StreamEvent[]; close(): void }>;
}

/**
 * The OS keychain of the app or CLI that starts the service (the host's SecretStore has this shape). Only the
 * keychain is handed over, never safeStorage or memory: the app and the CLI must find the same key, and
 * only the keychain is shared by both.
 */
export interface Keyring {
  readonly kind: string;
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
}

/** The fields the service itself sets before any area starts; every area is built from them (./context.ts). */
export interface CoreContext {
  readonly db: ServiceDatabase;
  readonly clock: Clock;
  readonly config: ServiceConfig;
  readonly dataDir: string;
  /**
   * The service's origin in every absolute link it gives (issuer, signed file URLs, metadata): `publicUrl`
   * when set, else `http://127.0.0.1:<port>` (set once listening).
   */
  baseUrl: string;
  /** The port the HTTP server listens on (set once listening). */
  listenPort: number;
  /** Where processes on this host reach the service, e.g. `http://127.0.0.1:8787` (set once listening). */
  localUrl: string;
  /** Public name, trusted proxies, bind address (./serving). */
  readonly serving: Serving;
  /**
   * Started inside the AgentDesk app with a launch secret: the app signs its person in by itself
   * (identity/launch-trust.ts), so no one makes an account through the first-run page.
   */
  readonly startedByApp: boolean;
  /** Runs beside the data folder's own service, in another program of this computer (ServiceOptions.guest). */
  readonly guest?: GuestRole;
  /** The starting app's or CLI's OS keychain, for the keys that seal stored secrets; absent elsewhere. */
  readonly keyring?: Keyring;
  readonly log: (line: string) => void;
  readonly identity: Identity;
  readonly account: AccountDeletion;
  /**
   * Set when several service processes share one PostgreSQL store (cluster/): every conversation's events
   * go through the store, so a stream served by any process follows a turn run by another.
   */
  readonly sharedEvents?: SharedEvents;
  /**
   * Several processes: whether this process runs the agent's machine, taking the agent's lease when it is
   * free (cluster/agent-leases.ts). Only the process that runs it fires the agent's scheduled turns.
   */
  readonly runsAgent?: (agentId: string) => Promise<boolean>;
  /** Several processes: registers what to do when another process took one of our agents over. */
  readonly whenAgentLost?: (listener: (agentId: string) => void) => void;
  /** Registers a disposer run when the service closes (last registered, first run). */
  onClose(dispose: () => void | Promise<void>): void;
}
