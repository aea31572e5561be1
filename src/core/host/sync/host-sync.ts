/**
 * The sync part of the host: one SyncManager per signed-in profile (its
 * folder choices and sync state under the app's data folder), the bridge's
 * sync methods on top of it, and the remote hints taken from conversation
 * streams the renderer already opened.
 */
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import type { StreamEvent } from '../../../shared/api';
import type { SyncMethods, DeskError, DeskResult } from '../../../shared/bridge';
import type { ApiClient } from '../../api/api-client';
import type { Logger } from '../../log/logger';
import { defaultSyncFolder, SyncManager } from '../../sync';
import { checkId } from '../plumbing/argument-checks';
import { fail, toDeskResult } from '../plumbing/call-results';
import type { ActiveConnection } from '../plumbing/connection';
import { openSyncedFolder, pickSyncFolder, type SyncOs } from './sync-folder-opening';
import { syncHistoryCalls, type OnFolder } from './sync-history-calls';
import { chooseSyncRoot } from './sync-root-choice';
import { createSyncStatusFeed } from './sync-status-feed';

export type { SyncOs } from './sync-folder-opening';

export interface HostSyncSettings {
  /** How often each folder re-lists the agent's files while the app runs (default 30 s). */
  remoteIntervalMs?: number;
  debounceMs?: number;
  /** How soon a remembered folder another process holds is tried again (default 10 s). */
  retryMs?: number;
  /** Moves a local file to the OS trash (the `trash` package by default). */
  trash?: (absolutePath: string) => Promise<void>;
  /** The home folder behind the default ~/AgentDesk/<agent name>. */
  home?: string;
  /** The person's chosen folder for new synced folders (Settings), instead of ~/AgentDesk. */
  syncRoot?: () => string | null;
}

export interface HostSyncOptions extends HostSyncSettings {
  /** The app's data folder; each profile's sync data goes under `profiles/<id>/sync/`. */
  dataDir: string;
  os: SyncOs;
  logger: Logger;
}

export type SyncBridge = SyncMethods;

export interface HostSync {
  bridge: SyncBridge;
  /** The signed-in profile's API: starts its remembered folders (stopping another profile's first). */
  connect(profileId: string, api: ApiClient): void;
  /** Signed out or switched away: stops every folder; choices stay remembered. */
  disconnect(): void;
  /** Connects and disconnects as the active connection signs in, out, or goes. */
  follow(connection: ActiveConnection): void;
  /** A conversation event the renderer's stream delivered: a turn's `done` or a file path means "look again". */
  hint(agentId: string, event: StreamEvent): void;
  close(): Promise<void>;
}

interface Active {
  profileId: string;
  api: ApiClient;
  manager: SyncManager;
  /** Remembered folders starting; choices wait for it so one agent never gets two engines. */
  started: Promise<void>;
}

const signedOut = <T>(): DeskResult<T> => fail('signed_out', 'You are signed out. Sign in to sync folders.');

const checkAgentId = (agentId: unknown): DeskError | undefined => checkId(agentId, 'agent');

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function createHostSync(options: HostSyncOptions): HostSync {
  const { logger } = options;
  const home = options.home ?? homedir();
  const defaultFolder = (name: string): string => {
    const root = options.syncRoot?.();
    return root ? join(root, basename(defaultSyncFolder(name, home))) : defaultSyncFolder(name, home);
  };
  const closing = new Set<Promise<void>>();
  let active: Active | undefined;
  const feed = createSyncStatusFeed(logger);

  const disconnect = (): void => {
    const old = active;
    if (!old) return;
    active = undefined;
    const done = old.started
      .then(() => old.manager.close())
      .catch((error: unknown) => logger.error('Sync did not stop cleanly.', error))
      .finally(() => closing.delete(done));
    closing.add(done);
  };

  const agentName = async (api: ApiClient, agentId: string): Promise<DeskResult<string>> => {
    const config = toDeskResult(await api.getAgentConfig(agentId, { fields: ['name'] }));
    return config.ok ? { ok: true, value: config.value.name ?? agentId } : config;
  };

  /** Runs an action on an agent's running folder, waiting for remembered folders to start if needed. */
  const onFolder: OnFolder = async (agentId, run) => {
    const invalid = checkAgentId(agentId);
    if (invalid) return { ok: false, error: invalid };
    const id = agentId as string;
    const current = active;
    if (!current) return signedOut();
    if (!current.manager.get(id)) await current.started;
    if (!current.manager.get(id)) {
      return fail('sync_not_set_up', 'This agent has no sync folder yet. Choose one first.');
    }
    try {
      await run(current.manager, id);
    } catch (error) {
      return fail('sync_failed', messageOf(error));
    }
    const state = current.manager.get(id);
    return state ? { ok: true, value: state } : fail('sync_not_set_up', 'Sync stopped for this agent.');
  };

  const bridge: SyncBridge = {
    async listSyncFolders() {
      if (!active) return signedOut();
      return { ok: true, value: active.manager.list() };
    },

    async getSyncFolder(agentId) {
      const invalid = checkAgentId(agentId);
      if (invalid) return { ok: false, error: invalid };
      const current = active;
      if (!current) return signedOut();
      let folder = current.manager.get(agentId);
      let name = folder?.agentName;
      if (!name) {
        const named = await agentName(current.api, agentId);
        if (!named.ok) return named;
        name = named.value;
        folder = current.manager.get(agentId);
      }
      return {
        ok: true,
        value: {
          agentId,
          folder: folder ?? null,
          defaultRoot: defaultFolder(name),
          canPickFolder: !!options.os.pickFolder,
        },
      };
    },

    async setSyncFolder(agentId, root) {
      const invalid = checkAgentId(agentId);
      if (invalid) return { ok: false, error: invalid };
      if (root !== undefined && typeof root !== 'string')
        return fail('invalid_argument', 'A folder is needed.');
      const current = active;
      if (!current) return signedOut();
      const named = await agentName(current.api, agentId);
      if (!named.ok) return named;
      await current.started;
      if (active !== current) return signedOut();
      const choice = chooseSyncRoot(root, {
        defaultRoot: defaultFolder(named.value),
        home,
        dataDir: options.dataDir,
        otherRoots: current.manager
          .list()
          .filter((f) => f.agentId !== agentId)
          .map((f) => ({ root: f.root, agentName: f.agentName || f.agentId })),
      });
      if (!choice.ok) return fail('invalid_argument', choice.message);
      try {
        // The folder must exist before the engine starts watching it, or its changes go unseen.
        await mkdir(choice.root, { recursive: true });
        return { ok: true, value: await current.manager.setFolder(agentId, choice.root) };
      } catch (error) {
        // A choice that could not start is not remembered: the person sees why and chooses again.
        await current.manager.removeFolder(agentId).catch(() => undefined);
        return fail('sync_failed', `Sync could not start: ${messageOf(error)}`);
      }
    },

    async stopSync(agentId) {
      const invalid = checkAgentId(agentId);
      if (invalid) return { ok: false, error: invalid };
      const current = active;
      if (!current) return signedOut();
      await current.started;
      await current.manager.removeFolder(agentId);
      feed.forget(agentId);
      return { ok: true, value: undefined };
    },

    pauseSync: (agentId) => onFolder(agentId, async (m, id) => m.pause(id)),
    resumeSync: (agentId) => onFolder(agentId, (m, id) => m.resume(id)),
    syncNow: (agentId) => onFolder(agentId, (m, id) => m.syncNow(id)),
    confirmSyncDeletes: (agentId) => onFolder(agentId, (m, id) => m.confirmDeletes(id)),
    bringBackSyncDeletes: (agentId) => onFolder(agentId, (m, id) => m.bringBackDeleted(id)),

    async resolveSyncConflict(agentId, key, choice) {
      if (typeof key !== 'string' || key === '') return fail('invalid_argument', 'A conflict is needed.');
      if (choice !== 'mine' && choice !== 'theirs' && choice !== 'both') {
        return fail('invalid_argument', 'Choose keep mine, keep theirs or keep both.');
      }
      return onFolder(agentId, (m, id) => m.resolveConflict(id, key, choice));
    },

    ...syncHistoryCalls(onFolder),

    async openSyncFolder(agentId, target) {
      const invalid = checkAgentId(agentId);
      if (invalid) return { ok: false, error: invalid };
      if (target !== 'folder' && target !== 'editor') {
        return fail('invalid_argument', 'Open the folder or the editor.');
      }
      const current = active;
      if (!current) return signedOut();
      const folder = current.manager.get(agentId);
      if (!folder) return fail('sync_not_set_up', 'This agent has no sync folder yet. Choose one first.');
      return openSyncedFolder(options.os, folder.root, target);
    },

    pickSyncFolder: (defaultPath) => pickSyncFolder(options.os, defaultPath),

    onSyncStatus: (listener) => feed.subscribe(listener, active?.manager.list() ?? []),
  };

  const connect = (profileId: string, api: ApiClient): void => {
    if (active?.profileId === profileId && active.api === api) return;
    disconnect();
    const manager = new SyncManager({
      dataDir: join(options.dataDir, 'profiles', encodeURIComponent(profileId)),
      api,
      onStatus: feed.push,
      ...(options.trash ? { trash: options.trash } : {}),
      ...(options.remoteIntervalMs !== undefined ? { remoteIntervalMs: options.remoteIntervalMs } : {}),
      ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
      ...(options.retryMs !== undefined ? { retryMs: options.retryMs } : {}),
    });
    const started = manager.start().catch((error: unknown) => {
      logger.error('Remembered sync folders did not start.', error);
    });
    active = { profileId, api, manager, started };
  };

  return {
    bridge,
    connect,
    disconnect,

    follow(connection) {
      connection.on((event) => {
        const signedOut = event.type === 'tokens' && event.event.type === 'signed-out';
        const signedIn =
          (event.type === 'connected' && event.connection.tokens.signedIn) ||
          (event.type === 'tokens' && event.event.type === 'signed-in');
        if (event.type === 'dropped' || signedOut) disconnect();
        else if (signedIn) connect(event.connection.profile.id, event.connection.api);
      });
    },

    hint(agentId, event) {
      const current = active;
      if (!current) return;
      const data = event.data as { turnId?: unknown; path?: unknown };
      const changed =
        (event.event === 'done' && typeof data.turnId === 'string') ||
        ((event.event === 'tool' || event.event === 'artifact') &&
          typeof data.path === 'string' &&
          data.path !== '');
      if (changed) current.manager.remoteChanged(agentId);
      // Any other event of a turn means the agent works: its writes may come any moment.
      else current.manager.agentActive(agentId);
    },

    async close() {
      disconnect();
      await Promise.all([...closing]);
      feed.close();
    },
  };
}
