import { join } from 'node:path';
import { ALL_SCOPES } from '../../shared/api';
import { silentLogger } from '../log/logger';
import { openProfileStore } from '../profiles/profile-store';
import { createConversationEvents } from './conversations/conversation-events';
import type { HostOptions } from './host-options';
import { createMemoryArea } from './memory/host-memory';
import { createActivityTracker } from './platform/activity';
import { createActiveConnection } from './plumbing/connection';
import { serverExtensionsReader } from './plumbing/server-extensions';
import { createStreamRegistry } from './plumbing/stream-registry';
import { createSessionArea } from './session/session';
import { createSettingsArea } from './settings/settings';
import { createHostSync } from './sync/host-sync';

/**
 * The plumbing and the areas other areas lean on (settings, sync, memory, session and the
 * conversation events that feed them), built in the order they need each other. Areas that
 * only serve the bridge are not here but in host-areas.ts, which reads this record.
 */
export async function createHostCore(options: HostOptions) {
  const logger = options.logger ?? silentLogger;
  const { dataDir } = options;
  const profiles = await openProfileStore({ filePath: join(dataDir, 'profiles.json') });
  const localDataDir = options.localServiceDataDir ?? join(dataDir, 'local-service');
  const connection = createActiveConnection({ ...options, profiles, localDataDir, logger });
  const streams = createStreamRegistry();
  streams.follow(connection); // streams and sync follow the connection before the session says so
  const activity = createActivityTracker();
  const settings = createSettingsArea({
    dataDir,
    ...(options.sync?.home ? { home: options.sync.home } : {}),
    ...(options.settings ? { hooks: options.settings } : {}),
  });
  await settings.load();
  const syncRoot = () => settings.current().syncRoot;
  const sync = createHostSync({ syncRoot, ...options.sync, dataDir, os: options.os, logger });
  sync.follow(connection);
  const memory = createMemoryArea({ dataDir, connection, logger });
  const scopes = options.scopes ?? ALL_SCOPES;
  const session = createSessionArea({ ...options, profiles, connection, streams, scopes, logger });
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
  const { withApi } = connection;
  const parts = { options, logger, connection, withApi, activity, settings, sync, memory, session };
  return {
    ...parts,
    onConversationEvent,
    /** One reader for every area that asks which extensions the server offers: one read per server. */
    serverExtensions: serverExtensionsReader(withApi),
    /** Memory and settings first, then sign-ins; streams and sync stop with the connection, which closes last. */
    async close() {
      await memory.close();
      await settings.flush();
      await session.close();
      connection.drop();
      await sync.close();
      await connection.close();
    },
  };
}

export type HostCore = Awaited<ReturnType<typeof createHostCore>>;
