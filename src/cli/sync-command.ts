import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import trash from 'trash';
import { createApiClient } from '../core/api/api-client';
import { staticTokenSource } from '../core/auth/access-token-source';
import { defaultDataDir } from '../core/profiles/data-dir';
import { checkBaseUrl } from '../core/profiles/profile-store';
import { BoxRemote } from '../core/sync/box-remote';
import { BundleRemote } from '../core/sync/bundle-remote';
import type { RemoteSide } from '../core/sync/remote-side';
import { SyncEngine, type SyncStatus } from '../core/sync/sync-engine';
import type { SkipReason } from '../core/sync/sync-planner';
import { SyncStateStore } from '../core/sync/sync-state-store';
import type { CliIo } from './terminal';

export const SYNC_USAGE = `Usage: agentdesk sync <folder> --agent <id> [--once] [options]

Keeps <folder> and the agent's files (instructions.md, mcp.json, skills/, work/ or knowledge/)
in step, both ways. Without --once it keeps watching until Ctrl-C.

Options:
  --agent <id>          the agent to sync with (required)
  --once                one sync, then exit: 0 when in step, 3 when conflicts are open, 1 on errors
  --server <url>        the service (or AGENTDESK_SERVER)
  --token <gat_…>       the agent's token from its page (or AGENTDESK_TOKEN, which keeps it out of
                        the process list)
  --interval <seconds>  how often to look for the agent's own changes while watching (default 30)
  --confirm-deletes     go ahead when a sync would delete many files (otherwise it stops and asks)
  --state <file>        where the sync state lives (default: the app's data folder)
  --data <dir>          the app's data folder
`;

/** Exit codes of `agentdesk sync`, so scripts can tell "in step" from "needs a person". */
export const syncExit = { ok: 0, error: 1, usage: 2, conflicts: 3 } as const;

export interface SyncCommandDeps {
  io: CliIo;
  env?: NodeJS.ProcessEnv;
  /** Moves a local file to the OS trash (the `trash` package by default). */
  trash?: (absolutePath: string) => Promise<void>;
}

const skipWords: Record<SkipReason, string> = {
  'too-large': 'too large',
  symlink: 'a symlink, never followed',
  'invalid-name': 'a name the server cannot take',
  'upload-only': 'this server cannot send it back (upload-only)',
  'name-clash': 'another file has the same name but for letter case',
  empty: 'empty: the agent cannot store an empty file',
  'outside-layout': 'outside the layout (instructions.md, mcp.json, skills/<name>/, work/ or knowledge/)',
  'looks-like-copy': 'named like a conflict copy the sync did not make; rename it to sync it',
};

/**
 * `agentdesk sync <folder> --agent <id> [--once]`: the sync engine headless. Prints
 * progress, conflicts and skipped files; exits non-zero on open conflicts with --once.
 */
export async function runSyncCommand(argv: string[], deps: SyncCommandDeps): Promise<number> {
  const { io } = deps;
  const env = deps.env ?? process.env;
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        agent: { type: 'string' },
        once: { type: 'boolean', default: false },
        server: { type: 'string' },
        token: { type: 'string' },
        interval: { type: 'string' },
        'confirm-deletes': { type: 'boolean', default: false },
        state: { type: 'string' },
        data: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${SYNC_USAGE}`);
    return syncExit.usage;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(SYNC_USAGE);
    return syncExit.ok;
  }
  const [folder, ...extra] = positionals;
  const agentId = values.agent;
  if (!folder || extra.length > 0 || !agentId) {
    io.err(`sync needs one folder and --agent <id>.\n\n${SYNC_USAGE}`);
    return syncExit.usage;
  }
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
  const intervalSeconds = values.interval === undefined ? 30 : Number(values.interval);
  if (!Number.isFinite(intervalSeconds) || intervalSeconds < 0) {
    io.err('--interval takes a number of seconds.\n');
    return syncExit.usage;
  }

  const root = resolve(folder);
  const api = createApiClient({ baseUrl: baseUrl.value, auth: staticTokenSource(token) });
  const config = await api.getAgentConfig(agentId, { fields: ['name', 'storage'] });
  if (!config.ok) {
    io.err(`Could not reach agent ${agentId}: ${config.error.message}\n`);
    return syncExit.error;
  }
  const remote: RemoteSide =
    config.value.storage === 'bundle'
      ? new BundleRemote(api, agentId)
      : new BoxRemote({ api, agentId, root });
  const stateFile = values.state
    ? resolve(values.state)
    : defaultStateFile(values.data ? resolve(values.data) : defaultDataDir(process.platform, env), {
        server: baseUrl.value,
        agentId,
        root,
      });
  const store = new SyncStateStore(stateFile);
  const reporter = statusReporter(io);
  const engine = new SyncEngine({
    root,
    agentId,
    remote,
    store,
    trash: deps.trash ?? ((path) => trash(path, { glob: false })),
    watch: !values.once,
    remoteIntervalMs: values.once ? 0 : intervalSeconds * 1000,
    onStatus: reporter,
  });
  const name = config.value.name ? `"${config.value.name}"` : agentId;
  io.out(
    `Syncing ${root} with ${name} (${config.value.storage === 'bundle' ? 'bundle' : 'machine'} agent).\n`,
  );

  try {
    let status = await engine.start();
    if (status.pendingDeletes && values['confirm-deletes']) status = await engine.confirmDeletes();
    if (values.once) return exitCodeOf(status);
    io.out('Watching for changes; press Ctrl-C to stop.\n');
    await new Promise<void>((stop) => {
      const off = io.onInterrupt(() => {
        off();
        stop();
      });
    });
    io.out('Stopping.\n');
    return syncExit.ok;
  } finally {
    await engine.close();
    store.close();
  }
}

/** One state file per server, agent and folder, in the app's data folder (never in the synced folder). */
export function defaultStateFile(
  dataDir: string,
  where: { server: string; agentId: string; root: string },
): string {
  const id = createHash('sha256')
    .update(`${where.server}\n${where.agentId}\n${where.root}`)
    .digest('hex')
    .slice(0, 16);
  const safeAgent = where.agentId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return join(dataDir, 'sync', `${safeAgent}-${id}.db`);
}

function exitCodeOf(status: SyncStatus): number {
  if (status.state === 'error' || status.state === 'paused' || status.state === 'stopped')
    return syncExit.error;
  if (status.conflicts.length > 0) return syncExit.conflicts;
  return syncExit.ok;
}

/** Prints what changed in the status: a cycle's work, new conflicts and skips, errors and pauses. */
function statusReporter(io: CliIo): (status: SyncStatus) => void {
  const seenConflicts = new Set<string>();
  const seenSkips = new Set<string>();
  let lastMessage: string | undefined;
  let limitationShown = false;
  let announcedTotal = 0;
  let lastTenth = 0;
  return (status) => {
    if (status.limitation && !limitationShown) {
      limitationShown = true;
      io.out(`Note: ${status.limitation}\n`);
    }
    if (status.state === 'syncing' && status.total > 0) {
      if (status.done === 0 && announcedTotal !== status.total) {
        announcedTotal = status.total;
        lastTenth = 0;
        io.out(`Syncing ${status.total} change${status.total === 1 ? '' : 's'}…\n`);
      }
      // Long syncs show progress every tenth, short ones only their end.
      const tenth = Math.floor((status.done / status.total) * 10);
      if (status.total >= 50 && tenth > lastTenth && status.done < status.total) {
        lastTenth = tenth;
        io.out(`  ${status.done} of ${status.total}\n`);
      }
    }
    if (status.state === 'idle' && announcedTotal > 0) {
      io.out(`In step at ${new Date(status.lastSyncAt ?? Date.now()).toLocaleTimeString()}.\n`);
      announcedTotal = 0;
    }
    for (const conflict of status.conflicts) {
      const id = `${conflict.key} ${conflict.at}`;
      if (seenConflicts.has(id)) continue;
      seenConflicts.add(id);
      io.out(
        `Conflict: ${conflict.path} changed on both sides. Yours stays; the agent's version is saved as ${conflict.remoteCopyPath}. Resolve it in AgentDesk (keep mine, keep theirs or keep both).\n`,
      );
    }
    for (const skip of status.skipped) {
      const id = `${skip.path} ${skip.reason}`;
      if (seenSkips.has(id)) continue;
      seenSkips.add(id);
      io.out(`Skipped: ${skip.path} (${skipWords[skip.reason] ?? skip.reason})\n`);
    }
    const message =
      status.state === 'error' || status.state === 'paused' ? (status.message ?? status.state) : undefined;
    if (message && message !== lastMessage) {
      io.err(`${status.state === 'paused' ? 'Paused' : 'Error'}: ${message}\n`);
      if (status.pendingDeletes) io.err('Run again with --confirm-deletes to go ahead.\n');
    }
    if (status.state !== 'scanning') lastMessage = message;
  };
}
