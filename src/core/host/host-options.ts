import type { Scope } from '../../shared/api';
import type { DeskBridge } from '../../shared/bridge';
import type { FetchLike } from '../common/result';
import type { Logger } from '../log/logger';
import type { SecretStore } from '../auth/secret-store';
import type { ActivitySnapshot } from './platform/activity';
import type { EmbeddedService, EmbeddedStart } from './plumbing/connection';
import type { PlatformOs } from './platform/platform';
import type { SettingsHooks } from './settings/settings';
import type { HostSyncSettings, SyncOs } from './sync/host-sync';

/**
 * What every program (Electron, browser mode, CLI) gives the host. Platform
 * pieces (opening a browser, notifications, starting the embedded service)
 * are injected, so the host stays plain Node.
 */

export type { EmbeddedService } from './plumbing/connection';

export interface HostOs extends SyncOs, PlatformOs {}

export interface HostOptions {
  /** The app's data folder: `profiles.json`, and the embedded service's data under `local-service/`. */
  dataDir: string;
  /** Overrides where "this computer"'s service keeps its data. */
  localServiceDataDir?: string;
  secrets: SecretStore;
  /** Starts "this computer"'s service in this process (EmbeddedStart says where and how). */
  startEmbeddedService(options: EmbeddedStart): Promise<EmbeddedService>;
  /**
   * This program in words ("the AgentDesk app" by default), told to another program that finds "this
   * computer"'s service already running on the same data folder and joins it (plumbing/local-service-lease.ts).
   */
  who?: string;
  /** Shows the authorize page: shell.openExternal, a browser-mode tab, or print-and-open in the CLI. */
  openBrowser(url: string): void | Promise<void>;
  os: HostOs;
  /** Electron's net.fetch in the app; global fetch elsewhere. */
  fetch?: FetchLike;
  logger?: Logger;
  /** Where sign-in-done.html lives (found from the repo by default). */
  resourcesDir?: string;
  scopes?: readonly Scope[];
  signInTimeoutMs?: number;
  /** Epoch ms, for token expiry. */
  now?: () => number;
  /** Sync timings and trash (tests); folders are remembered under `profiles/<id>/sync/`. */
  sync?: HostSyncSettings;
  /** The program's version and, in an installed desktop app, its update check (Settings). */
  settings?: SettingsHooks;
}

export interface DeskHost extends DeskBridge {
  /** Running turns and open permission questions, from the app's own streams (the tray reads it). */
  activity(): ActivitySnapshot;
  /** Stops sign-ins, streams and the embedded service. */
  close(): Promise<void>;
}
