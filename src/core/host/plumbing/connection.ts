import type { DeskResult, ServiceProfile, Unsubscribe } from '../../../shared/bridge';
import { createApiClient, type ApiClient } from '../../api/api-client';
import type { FetchLike } from '../../common/result';
import type { Logger } from '../../log/logger';
import type { SecretStore } from '../../auth/secret-store';
import { TokenManager, type TokenManagerEvent } from '../../auth/token-manager';
import type { ProfileStore } from '../../profiles/profile-store';
import { fail, toDeskResult } from './call-results';
import { createEventHub } from './event-hub';
import type { AppSignIn, EmbeddedService, EmbeddedStart, ServiceHolder } from './embedded-service';
import { startOrJoinLocalService } from './local-service-lease';
import type { WithApi } from './with-api';

export type { AppSignIn, EmbeddedService, EmbeddedStart, ServiceHolder } from './embedded-service';

/**
 * The active profile's connection: where its API is, who holds its tokens,
 * and the API client over them. Built on first use, and for "this computer"
 * after starting the embedded service. Areas hear of it through `on`.
 */
export interface Connection {
  profile: ServiceProfile;
  baseUrl: string;
  tokens: TokenManager;
  api: ApiClient;
  /** Set for "this computer" when its service trusts this app: sign in with no browser and no password. */
  signInApp?: (scope: string) => Promise<AppSignIn>;
  /** "This computer"'s service run by another program, which alone can sign in without a password. */
  heldBy?: ServiceHolder;
}

export type ConnectionEvent =
  | { type: 'connected'; connection: Connection }
  /** The connection was dropped (sign-out of the profile, switch, removal or close). */
  | { type: 'dropped' }
  | { type: 'tokens'; connection: Connection; event: TokenManagerEvent };

export interface ActiveConnectionOptions {
  profiles: ProfileStore;
  secrets: SecretStore;
  /** Where "this computer"'s service keeps its data. */
  localDataDir: string;
  startEmbeddedService(options: EmbeddedStart): Promise<EmbeddedService>;
  /** This program in words, for another one that finds the service already running: "the AgentDesk app". */
  who?: string | undefined;
  fetch?: FetchLike | undefined;
  now?: (() => number) | undefined;
  logger: Logger;
}

export interface ActiveConnection {
  current(): Connection | undefined;
  /** Builds (or reuses) the connection of the active profile; starts the embedded service for "this computer". */
  connect(): Promise<DeskResult<Connection>>;
  drop(): void;
  /** Runs an API call for the signed-in person, or says plainly why it can't. */
  withApi: WithApi;
  on(listener: (event: ConnectionEvent) => void): Unsubscribe;
  /** Forgets a removed profile's tokens, and stops the embedded service when it was "this computer". */
  forget(profileId: string, profile: ServiceProfile | undefined): Promise<void>;
  close(): Promise<void>;
}

export const SIGNED_OUT = 'You are signed out. Please sign in.';
const REVOKE_WAIT_MS = 5_000;
const tokenKey = (profileId: string): string => `tokens:${profileId}`;
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function createActiveConnection(options: ActiveConnectionOptions): ActiveConnection {
  const { profiles, logger } = options;
  const hub = createEventHub<ConnectionEvent>(logger, 'connection');
  let localService: Promise<EmbeddedService> | undefined;
  let connection: Connection | undefined;
  let stopTokenEvents: () => void = () => {};

  const ensureLocalService = (profile: ServiceProfile): Promise<EmbeddedService> => {
    // Another program's service is used with this account's saved sign-in; without one, a guest beside it.
    const canJoin = async () =>
      (await options.secrets.get(tokenKey(profile.id)).catch(() => undefined)) !== undefined;
    localService ??= startOrJoinLocalService({
      dataDir: options.localDataDir,
      who: options.who ?? 'the AgentDesk app',
      start: (how) => options.startEmbeddedService({ dataDir: options.localDataDir, ...how }),
      canJoin,
      fetch: options.fetch,
      onTakeOver: () => void tookOver(),
      log: (message) => logger.warn(message),
    }).catch((error: unknown) => {
      localService = undefined;
      throw error;
    });
    return localService;
  };

  /** The program whose service this one had joined ended, and this one runs it now: it signs in by itself. */
  const tookOver = async (): Promise<void> => {
    const embedded = await localService?.catch(() => undefined);
    logger.info('AgentDesk took over the service on this computer from the program that ended.');
    if (!embedded || connection?.profile.kind !== 'local') return;
    delete connection.heldBy;
    if (embedded.signInApp) connection.signInApp = embedded.signInApp.bind(embedded);
  };

  const stopLocalService = async (): Promise<void> => {
    const running = localService;
    localService = undefined;
    if (running) await (await running.catch(() => undefined))?.close().catch(() => undefined);
  };

  const serviceOf = async (
    profile: ServiceProfile,
  ): Promise<DeskResult<{ url: string; embedded?: EmbeddedService }>> => {
    if (profile.kind !== 'local') return { ok: true, value: { url: profile.baseUrl } };
    try {
      const embedded = await ensureLocalService(profile);
      return { ok: true, value: { url: embedded.url, embedded } };
    } catch (error) {
      logger.error('The local service did not start.', error);
      return fail(
        'service_unavailable',
        `AgentDesk could not start its local service (${messageOf(error)}).`,
      );
    }
  };

  /**
   * Forgetting an account ends its sign-in on the server too, as signing out does, so no refresh token
   * outlives it there. A server that does not answer holds Forget up for at most a few seconds.
   */
  const revokeSaved = async (profileId: string, profile: ServiceProfile | undefined): Promise<void> => {
    if (!profile) return;
    // "This computer"'s service is asked only when it runs; its tokens never leave this computer.
    const running = profile.kind === 'local' ? await localService?.catch(() => undefined) : undefined;
    const baseUrl = profile.kind === 'local' ? running?.url : profile.baseUrl;
    if (!baseUrl) return;
    const tokens = await TokenManager.open({
      store: options.secrets,
      key: tokenKey(profileId),
      oauth: { baseUrl, clientId: profile.clientId, ...(options.fetch ? { fetch: options.fetch } : {}) },
      logger,
    });
    if (!tokens.signedIn) return;
    await Promise.race([tokens.signOut(), new Promise((done) => setTimeout(done, REVOKE_WAIT_MS).unref())]);
  };

  const drop = (): void => {
    hub.emit({ type: 'dropped' });
    stopTokenEvents();
    stopTokenEvents = () => {};
    connection = undefined;
  };

  const connect = async (): Promise<DeskResult<Connection>> => {
    const profile = profiles.active();
    if (!profile) return fail('signed_out', 'Choose where to sign in first: this computer or a server.');
    if (connection?.profile.id === profile.id) return { ok: true, value: connection };
    drop();
    const service = await serviceOf(profile);
    if (!service.ok) return service;
    const baseUrl = { value: service.value.url };
    const embedded = service.value.embedded;
    if (profiles.active()?.id !== profile.id)
      return fail('signed_out', 'The account changed while connecting.');
    const withFetch = options.fetch ? { fetch: options.fetch } : {};
    const tokens = await TokenManager.open({
      store: options.secrets,
      key: tokenKey(profile.id),
      oauth: {
        baseUrl: baseUrl.value,
        clientId: profile.clientId,
        ...withFetch,
        ...(options.now ? { now: options.now } : {}),
      },
      logger,
    });
    if (connection) return { ok: true, value: connection }; // a concurrent connect won
    const api = createApiClient({ baseUrl: baseUrl.value, auth: tokens, logger, ...withFetch });
    const built: Connection = {
      profile,
      baseUrl: baseUrl.value,
      tokens,
      api,
      ...(embedded?.signInApp ? { signInApp: embedded.signInApp.bind(embedded) } : {}),
      ...(embedded?.heldBy ? { heldBy: embedded.heldBy } : {}),
    };
    stopTokenEvents = tokens.onEvent((event) => {
      if (connection === built) hub.emit({ type: 'tokens', connection: built, event });
    });
    connection = built;
    hub.emit({ type: 'connected', connection: built });
    return { ok: true, value: built };
  };

  return {
    current: () => connection,
    connect,
    drop,
    async withApi(run) {
      const connected = await connect();
      if (!connected.ok) return connected;
      if (!connected.value.tokens.signedIn) return fail('signed_out', SIGNED_OUT);
      return toDeskResult(await run(connected.value.api));
    },
    on: (listener) => hub.on(listener),
    async forget(profileId, profile) {
      await revokeSaved(profileId, profile).catch((error: unknown) =>
        logger.warn(`Could not revoke a forgotten account's sign-in (${messageOf(error)}).`),
      );
      await options.secrets.delete(tokenKey(profileId)).catch(() => undefined);
      if (profile?.kind === 'local') await stopLocalService();
    },
    async close() {
      drop();
      hub.clear();
      await stopLocalService();
    },
  };
}
