/**
 * What every `agentdesk sync` command needs: the folder, its agent (from --agent or the folder's
 * `.agentdesk` marker), the folder's state file in the app's data folder (shared with the app),
 * and, for the commands that talk to the agent, the API and the remote side.
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { createApiClient, type ApiClient } from '../core/api/api-client';
import { staticTokenSource } from '../core/auth/access-token-source';
import type { SecretStore } from '../core/auth/secret-store';
import { defaultDataDir } from '../core/profiles/data-dir';
import { checkBaseUrl } from '../core/profiles/profile-store';
import { locateFolderState, readRootMarker, remoteForAgent, type RemoteSide } from '../core/sync';
import { signedInApi } from './sync-signed-in';
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
  /** The app's data folder (the person's sign-in, when no agent token is given). */
  dataDir: string;
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
  if (values.state) return { root, agentId, stateFile: resolve(values.state), dataDir };
  const server = values.server ?? env['AGENTDESK_SERVER'];
  // State kept before the app and the CLI shared it (the CLI named it by server too).
  const older = server ? [olderCliStateFile(dataDir, server, agentId, root)] : [];
  // The state the folder's marker names (the app's, if it synced the folder first) is shared.
  return { root, agentId, stateFile: await locateFolderState(dataDir, agentId, root, older), dataDir };
}

export interface Connection {
  remote: RemoteSide;
  name: string;
  storage: 'box' | 'bundle';
  /** Ends what the connection started (the local service of a sign-in to "this computer"). */
  close(): Promise<void>;
}

/**
 * Reaches the agent with --server and an agent token, or else with the person's own sign-in
 * (`agentdesk login`) in the data folder; a number is the exit code after a message.
 */
export async function connectAgent(
  where: SyncFolder,
  values: SyncOptionValues,
  io: CliIo,
  env: NodeJS.ProcessEnv,
  secrets?: SecretStore,
): Promise<Connection | number> {
  const token = values.token ?? env['AGENTDESK_TOKEN'];
  const server = values.server ?? env['AGENTDESK_SERVER'];
  let api: ApiClient;
  let close = async (): Promise<void> => {};
  if (token || server) {
    if (!token || !server) {
      io.err(
        `sync needs both --server and an agent token (--token or AGENTDESK_TOKEN), or neither to use your own sign-in (agentdesk login).\n`,
      );
      return syncExit.usage;
    }
    const baseUrl = checkBaseUrl(server);
    if (!baseUrl.ok) {
      io.err(`${baseUrl.error.message}\n`);
      return syncExit.usage;
    }
    api = createApiClient({ baseUrl: baseUrl.value, auth: staticTokenSource(token) });
  } else {
    const signedIn = await signedInApi(where.dataDir, secrets);
    if (!signedIn.ok) {
      io.err(
        `${signedIn.message} Sign in with agentdesk login, or give --server and an agent token (--token); create one on the agent’s page.\n`,
      );
      return syncExit.usage;
    }
    ({ api, close } = signedIn);
  }
  try {
    const agent = await remoteForAgent(api, where.agentId, where.root);
    return { ...agent, name: agent.name === where.agentId ? agent.name : `"${agent.name}"`, close };
  } catch (error) {
    await close();
    io.err(`Could not reach agent ${where.agentId}: ${(error as Error).message}\n`);
    return syncExit.error;
  }
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
