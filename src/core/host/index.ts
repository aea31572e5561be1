import { join } from 'node:path';
import { ALL_SCOPES } from '../../shared/api';
import { silentLogger } from '../log/logger';
import { openProfileStore } from '../profiles/profile-store';
import { createAccountArea } from './account/account';
import { createAgentsArea } from './agents/agents';
import { createConnectorsArea } from './connectors/connectors';
import { createConversationEvents } from './conversations/conversation-events';
import { createConversationsArea } from './conversations/conversations-and-turns';
import type { DeskHost, HostOptions } from './host-options';
import { createLibraryArea } from './library/library-and-audio';
import { createMemoryArea } from './memory/host-memory';
import { withMemory } from './memory/remembering-bridge';
import { createActivityTracker } from './platform/activity';
import { createPlatformArea } from './platform/platform';
import { createActiveConnection } from './plumbing/connection';
import { createStreamRegistry } from './plumbing/stream-registry';
import { createSchedulesArea } from './schedules/schedules';
import { createSessionArea } from './session/session-and-profiles';
import { createSettingsArea } from './settings/settings';
import { createStudioArea } from './studio/studio';
import { createHostSync } from './sync/host-sync';

export type { DeskHost, EmbeddedService, HostOs, HostOptions } from './host-options';

/**
 * Implements DeskBridge for every program (Electron, browser mode, CLI): one
 * area per part of the bridge, each given only what it needs, over the shared
 * plumbing (the active connection, the stream registry). See docs/architecture.md.
 */
export async function createHost(options: HostOptions): Promise<DeskHost> {
  const logger = options.logger ?? silentLogger;
  const profiles = await openProfileStore({ filePath: join(options.dataDir, 'profiles.json') });
  const connection = createActiveConnection({
    ...options,
    profiles,
    localDataDir: options.localServiceDataDir ?? join(options.dataDir, 'local-service'),
    logger,
  });
  const streams = createStreamRegistry();
  streams.follow(connection); // streams and sync follow the connection before the session says so
  const activity = createActivityTracker();
  const settings = createSettingsArea({
    dataDir: options.dataDir,
    ...(options.sync?.home ? { home: options.sync.home } : {}),
    ...(options.settings ? { hooks: options.settings } : {}),
  });
  await settings.load();
  const sync = createHostSync({
    syncRoot: () => settings.current().syncRoot,
    ...options.sync,
    dataDir: options.dataDir,
    os: options.os,
    logger,
  });
  sync.follow(connection);
  const { withApi } = connection;
  const memory = createMemoryArea({ dataDir: options.dataDir, connection, logger });
  const session = createSessionArea({
    ...options,
    profiles,
    connection,
    streams,
    scopes: options.scopes ?? ALL_SCOPES,
    logger,
  });
  const onConversationEvent = createConversationEvents({
    connection,
    streams,
    onEvent: (agentId, event, sessionId) => {
      sync.hint(agentId, event); // file hints from the renderer's own streams
      memory.observe(agentId, sessionId, event); // every event the app shows is kept
      activity.observe(sessionId, event); // running turns and open questions (tray, restart to update)
    },
    fetch: options.fetch,
    logger,
  });
  await session.start();

  const library = createLibraryArea({ withApi, logger, fetch: options.fetch });
  const studio = createStudioArea({ withApi });
  let closed = false;
  return withMemory(memory, {
    ...session.bridge,
    ...createAgentsArea({ withApi, onUser: session.noteUser }),
    ...createConversationsArea({
      withApi,
      baseUrl: () => connection.current()?.baseUrl,
      onConversationEvent,
    }),
    ...createSchedulesArea({ withApi }),
    ...library,
    ...createPlatformArea(options.os, {
      dataDir: options.dataDir,
      busy: async () => {
        const folders = await sync.bridge.listSyncFolders();
        const writing =
          folders.ok && folders.value.some((f) => ['scanning', 'syncing'].includes(f.status.state));
        return { turnsRunning: activity.snapshot().turnsRunning, syncWriting: writing };
      },
    }),
    ...sync.bridge,
    ...studio,
    ...memory.bridge,
    ...createAccountArea({ withApi, forgetSignIn: () => session.bridge.signOut() }),
    ...createConnectorsArea({ withApi, openExternal: (url) => options.os.openExternal(url) }),
    ...settings.bridge,
    activity: () => activity.snapshot(),
    async close() {
      if (closed) return;
      closed = true;
      studio.close();
      memory.close();
      library.close();
      await session.close();
      connection.drop();
      await sync.close();
      await connection.close();
    },
  });
}
