/**
 * Runs one sync cycle in its own process, so a test can kill it (SIGKILL) at a
 * chosen point and check that a restart settles cleanly.
 */
import { createApiClient } from '../../../src/core/api/api-client';
import { staticTokenSource } from '../../../src/core/auth/access-token-source';
import { BoxRemote } from '../../../src/core/sync/remote/box-remote';
import { SyncEngine } from '../../../src/core/sync/engine/sync-engine';
import { SyncStateStore } from '../../../src/core/sync/state/sync-state-store';

const [url, token, agentId, root, stateFile] = [
  'SYNC_URL',
  'SYNC_TOKEN',
  'SYNC_AGENT',
  'SYNC_ROOT',
  'SYNC_STATE',
].map((name) => process.env[name] ?? '') as [string, string, string, string, string];

const api = createApiClient({ baseUrl: url, auth: staticTokenSource(token) });
const engine = new SyncEngine({
  root,
  agentId,
  remote: new BoxRemote({ api, agentId, root }),
  store: new SyncStateStore(stateFile),
  trash: async () => {
    throw new Error('this child never trashes');
  },
});
const status = await engine.start();
console.log(JSON.stringify({ state: status.state, message: status.message }));
await engine.close();
