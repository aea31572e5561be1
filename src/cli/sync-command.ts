import { parseArgs } from 'node:util';
import { FolderBusyError, SyncedFolder, type SyncStatus } from '../core/sync';
import { runFolderCommand, folderCommands, type FolderCommand } from './sync-folder-commands';
import { connectAgent, openSyncFolder, syncExit } from './sync-setup';
import { statusReporter } from './sync-status-reporter';
import type { CliIo } from './terminal';
import type { SecretStore } from '../core/auth/secret-store';

export { syncExit } from './sync-setup';

export const SYNC_USAGE = `Usage:
  agentdesk sync <folder> --agent <id> [--once] [options]   keep <folder> and the agent's files in step
  agentdesk sync conflicts <folder>                         list the open conflicts
  agentdesk sync resolve <folder> <path> --keep mine|theirs|both
                                                            settle one conflict
  agentdesk sync history <folder> [path] [--cap <MB>]       list the versions the sync kept (and set
                                                            the history's size cap)
  agentdesk sync restore <folder> <path> [--version <n>]    put a kept version back in the folder;
                                                            the sync then sends it to the agent

Keeps <folder> and the agent's files (instructions.md, mcp.json, skills/, work/ or knowledge/)
in step, both ways. Without --once it keeps watching until Ctrl-C, and looks for the agent's own
writes every 2 seconds (less often while nothing changes, up to every 16 seconds; back to 2 as
soon as a file changes). Before the sync overwrites or deletes any version, on either side, it
keeps it in the folder's history (30 days, 1 GB unless you set --cap). One process syncs a
folder at a time: a second one (the app, or another terminal) says who holds it.

Options:
  --agent <id>          the agent to sync with (needed the first time; then read from the folder)
  --once                one sync, then exit: 0 when in step, 3 when conflicts are open, 1 on errors
  --watch               keep watching until Ctrl-C (what it does without --once)
  --server <url>        the service (or AGENTDESK_SERVER); without --server and --token the sync
                        uses your own sign-in (agentdesk login)
  --token <gat_…>       the agent's token from its page (or AGENTDESK_TOKEN, which keeps it out of
                        the process list)
  --interval <seconds>  how often to re-read everything while watching (default 30)
  --confirm-deletes     go ahead when a sync would delete many files (otherwise it stops and asks)
  --confirm-overwrites  on a server that cannot show whether the agent changed a file (no checksums,
                        upload-only work/), hold your edits and deletions of the agent's files
                        instead of sending them unchecked; run without it to send them
  --keep <choice>       with resolve: mine, theirs or both
  --version <n>         with restore: the version number from \`history\` (default: the newest one
                        that differs from the file now)
  --cap <MB>            with history: the most the folder's history may hold
  --state <file>        where the sync state lives (default: the app's data folder)
  --data <dir>          the app's data folder
`;

export interface SyncCommandDeps {
  io: CliIo;
  env?: NodeJS.ProcessEnv;
  /** Moves a local file to the OS trash (the `trash` package by default). */
  trash?: (absolutePath: string) => Promise<void>;
  /** Where the person's sign-in is kept (the OS keychain by default; tests pass a memory store). */
  secrets?: SecretStore;
}

/**
 * `agentdesk sync …`: the sync engine headless, and the folder's conflicts and history. Prints
 * progress, conflicts and files not synced; exits non-zero on open conflicts with --once.
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
        watch: { type: 'boolean', default: false },
        server: { type: 'string' },
        token: { type: 'string' },
        interval: { type: 'string' },
        'confirm-deletes': { type: 'boolean', default: false },
        'confirm-overwrites': { type: 'boolean', default: false },
        keep: { type: 'string' },
        version: { type: 'string' },
        cap: { type: 'string' },
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
  const [first, ...rest] = positionals;
  if (first && (folderCommands as readonly string[]).includes(first)) {
    return runFolderCommand(first as FolderCommand, rest, values, { ...deps, env, usage: SYNC_USAGE });
  }
  const [folder, ...extra] = positionals;
  if (!folder || extra.length > 0) {
    io.err(`sync needs one folder (and --agent <id> the first time).\n\n${SYNC_USAGE}`);
    return syncExit.usage;
  }
  if (values.once && values.watch) {
    io.err(`--once and --watch cannot go together: --once syncs once, --watch keeps watching.\n`);
    return syncExit.usage;
  }
  const intervalSeconds = values.interval === undefined ? 30 : Number(values.interval);
  if (!Number.isFinite(intervalSeconds) || intervalSeconds < 0) {
    io.err('--interval takes a number of seconds.\n');
    return syncExit.usage;
  }
  const where = await openSyncFolder(folder, values, io, env);
  if (typeof where === 'number') return where;
  const agent = await connectAgent(where, values, io, env, deps.secrets);
  if (typeof agent === 'number') return agent;

  let synced;
  try {
    synced = SyncedFolder.claim(where, 'agentdesk sync (command line)');
  } catch (error) {
    await agent.close();
    if (!(error instanceof FolderBusyError)) throw error;
    io.err(`${error.message}\n`);
    return syncExit.error;
  }
  const engine = synced.open(agent.remote, {
    ...(deps.trash ? { trash: deps.trash } : {}),
    watch: !values.once,
    remoteIntervalMs: values.once ? 0 : intervalSeconds * 1000,
    remotePollMs: values.once ? 0 : 2000,
    holdUnchecked: values['confirm-overwrites'],
    onStatus: statusReporter(io, { watching: !values.once }),
  });
  io.out(
    `Syncing ${where.root} with ${agent.name} (${agent.storage === 'bundle' ? 'bundle' : 'machine'} agent).\n`,
  );

  try {
    let status = await engine.start();
    if (status.pendingDeletes && values['confirm-deletes']) status = await engine.confirmDeletes();
    if (values.once) return exitCodeOf(status);
    // Ctrl-C, or a service manager's SIGTERM: stop the same way, releasing the folder. Listened
    // for before saying it watches, so a signal sent on seeing that line finds the handler.
    const stopped = new Promise<void>((stop) => {
      const end = () => {
        off();
        process.off('SIGTERM', end);
        stop();
      };
      const off = io.onInterrupt(end);
      process.once('SIGTERM', end);
    });
    io.out('Watching for changes; press Ctrl-C to stop.\n');
    await stopped;
    io.out('Stopping.\n');
    return syncExit.ok;
  } finally {
    await synced.close();
    await agent.close();
  }
}

function exitCodeOf(status: SyncStatus): number {
  if (status.state === 'error' || status.state === 'paused' || status.state === 'stopped')
    return syncExit.error;
  if (status.conflicts.length > 0) return syncExit.conflicts;
  return syncExit.ok;
}
