/**
 * What every `agentdesk sync` command needs: the folder, its agent (from --agent or the folder's
 * `.agentdesk` marker), the folder's state file in the app's data folder (shared with the app),
 * and, for the commands that talk to the agent, the API and the remote side.
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { createApiClient } from '../core/api/api-client';
import { staticTokenSource } from '../core/auth/access-token-source';
import { defaultDataDir } from '../core/profiles/data-dir';
import { checkBaseUrl } from '../core/profiles/profile-store';
import { BoxRemote } from '../core/sync/box-remote';
import { BundleRemote } from '../core/sync/bundle-remote';
import type { RemoteSide } from '../core/sync/remote-side';
import { readRootMarker } from '../core/sync/root-marker';
import { adoptOlderState, sharedStateFile, syncStateFile } from '../core/sync/state-location';
import type { CliIo } from './terminal';

/** Exit codes of `agentdesk sync`, so scripts can tell "in step" from "needs a person". */
export const syncExit = { ok: 0, error: 1, usage: 2, conflicts: 3 } as const;

export interface SyncOptionValues {
  agent?: string | undefined;
  server?: string | undefined;
  token?: string | undefined;
  state?: string | undefined;
  data?: string | undefined;
}

export interface SyncFolder {
  root: string;
  agentId: string;
  stateFile: string;
}

/** The folder and its state; a number is the exit code after a message was printed. */
export async function openSyncFolder(
  folder: string,
  values: SyncOptionValues,
  io: CliIo,
  env: NodeJS.ProcessEnv,
): Promise<SyncFolder | number> {
  const root = resolve(folder);
  const agentId = values.agent ?? (await readRootMarker(root))?.agentId;
  if (!agentId) {
    io.err(`${root} is not a synced folder yet: name the agent with --agent <id>.\n`);
    return syncExit.usage;
  }
  const dataDir = values.data ? resolve(values.data) : defaultDataDir(process.platform, env);
  if (values.state) return { root, agentId, stateFile: resolve(values.state) };
  const ownFile = syncStateFile(dataDir, agentId, root);
  const server = values.server ?? env['AGENTDESK_SERVER'];
  // State kept before the app and the CLI shared it (the CLI named it by server too).
  if (server) adoptOlderState(olderCliStateFile(dataDir, server, agentId, root), ownFile);
  // The state the folder's marker names (the app's, if it synced the folder first) is shared.
  return { root, agentId, stateFile: await sharedStateFile(root, agentId, ownFile) };
}

export interface Connection {
  remote: RemoteSide;
  name: string;
  storage: 'box' | 'bundle';
}

/** Reaches the agent with --server and its token; a number is the exit code after a message. */
export async function connectAgent(
  where: SyncFolder,
  values: SyncOptionValues,
  io: CliIo,
  env: NodeJS.ProcessEnv,
): Promise<Connection | number> {
  const token = values.token ?? env['AGENTDESK_TOKEN'];
  const server = values.server ?? env['AGENTDESK_SERVER'];
  if (!token || !server) {
    io.err(
      'sync needs --server and an agent token (--token or AGENTDESK_TOKEN): create one on the agent’s page.\n',
    );
    return syncExit.usage;
  }
  const baseUrl = checkBaseUrl(server);
  if (!baseUrl.ok) {
    io.err(`${baseUrl.error.message}\n`);
    return syncExit.usage;
  }
  const api = createApiClient({ baseUrl: baseUrl.value, auth: staticTokenSource(token) });
  const config = await api.getAgentConfig(where.agentId, { fields: ['name', 'storage'] });
  if (!config.ok) {
    io.err(`Could not reach agent ${where.agentId}: ${config.error.message}\n`);
    return syncExit.error;
  }
  const storage = config.value.storage === 'bundle' ? 'bundle' : 'box';
  const remote: RemoteSide =
    storage === 'bundle'
      ? new BundleRemote(api, where.agentId)
      : new BoxRemote({ api, agentId: where.agentId, root: where.root });
  return { remote, storage, name: config.value.name ? `"${config.value.name}"` : where.agentId };
}

/** The name the CLI gave a folder's state before it was shared with the app. */
function olderCliStateFile(dataDir: string, server: string, agentId: string, root: string): string {
  const checked = checkBaseUrl(server);
  const id = createHash('sha256')
    .update(`${checked.ok ? checked.value : server}\n${agentId}\n${root}`)
    .digest('hex')
    .slice(0, 16);
  return join(dataDir, 'sync', `${agentId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)}-${id}.db`);
}
