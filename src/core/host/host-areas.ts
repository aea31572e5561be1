import { createAccountArea } from './account/account';
import { createApprovalRulesArea } from './approval-rules/approval-rules';
import { createAgentsArea } from './agents/agents';
import { createConnectorsArea } from './connectors/connectors';
import { createConversationsArea } from './conversations/conversations';
import type { HostCore } from './host-core';
import { createLibraryArea } from './library/library';
import { createModelsArea } from './models/models';
import { createPlatformArea } from './platform/platform';
import { createSchedulesArea } from './schedules/schedules';
import { createAgentConfigArea } from './agent-config/agent-config';

/**
 * Every area of the bridge the host serves, in order: each entry hands its factory only what
 * it takes from the core record. A new area is one line here; an area holding resources
 * returns a `close()`, which the host calls when it closes.
 */
export const hostAreas = [
  ({ session }: HostCore) => session.bridge,
  ({ withApi, session }: HostCore) => createAgentsArea({ withApi, onUser: session.noteUser }),
  ({ withApi, serverExtensions, connection, onConversationEvent }: HostCore) =>
    createConversationsArea({
      withApi,
      serverExtensions,
      baseUrl: () => connection.current()?.baseUrl,
      onConversationEvent,
    }),
  ({ withApi }: HostCore) => createSchedulesArea({ withApi }),
  ({ withApi, logger, options }: HostCore) => createLibraryArea({ withApi, logger, fetch: options.fetch }),
  (core: HostCore) =>
    createPlatformArea(core.options.os, { dataDir: core.options.dataDir, busy: () => busy(core) }),
  ({ sync }: HostCore) => sync.bridge,
  ({ memory }: HostCore) => memory.bridge,
  ({ withApi }: HostCore) => createAgentConfigArea({ withApi }),
  ({ withApi, session }: HostCore) =>
    createAccountArea({ withApi, forgetSignIn: () => session.bridge.signOut() }),
  ({ withApi, options }: HostCore) =>
    createConnectorsArea({ withApi, openExternal: (url) => options.os.openExternal(url) }),
  ({ settings }: HostCore) => settings.bridge,
  ({ withApi }: HostCore) => createModelsArea({ withApi }),
  ({ withApi, serverExtensions, options }: HostCore) =>
    createApprovalRulesArea({ withApi, serverExtensions, dataDir: options.dataDir }),
] as const;

/** What holds back a restart to update: a reply running, or sync writing. */
async function busy({ sync, activity }: HostCore) {
  const folders = await sync.bridge.listSyncFolders();
  const writing = folders.ok && folders.value.some((f) => ['scanning', 'syncing'].includes(f.status.state));
  return { turnsRunning: activity.snapshot().turnsRunning, syncWriting: writing };
}
