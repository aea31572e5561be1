/**
 * `agentdesk sync conflicts|resolve|history|restore`: a headless person can see and settle
 * conflicts and get any kept version back, with the same state the app uses.
 */
import { isAbsolute, relative } from 'node:path';
import {
  FolderBusyError,
  FolderRecords,
  SyncedFolder,
  VersionHistory,
  folderOwner,
  historyUse,
  restoreKeptVersion,
  versionToRestore,
  type ConflictChoice,
  type VersionRecord,
} from '../core/sync';
import { askHolderToResolve } from './sync-resolve-by-holder';
import { connectAgent, openSyncFolder, syncExit, type SyncFolder, type SyncOptionValues } from './sync-setup';
import type { CliIo } from './terminal';
import type { SecretStore } from '../core/auth/secret-store';
import { historySetAsideWords } from '../shared/words/set-aside-words';

export const folderCommands = ['conflicts', 'resolve', 'history', 'restore'] as const;
export type FolderCommand = (typeof folderCommands)[number];

interface FolderCommandDeps {
  io: CliIo;
  env: NodeJS.ProcessEnv;
  usage: string;
  trash?: (absolutePath: string) => Promise<void>;
  secrets?: SecretStore;
}

type Values = SyncOptionValues & {
  keep?: string | undefined;
  version?: string | undefined;
  cap?: string | undefined;
};

export async function runFolderCommand(
  command: FolderCommand,
  args: string[],
  values: Values,
  deps: FolderCommandDeps,
): Promise<number> {
  const { io } = deps;
  const [folder, path, ...extra] = args;
  const needsPath = command === 'resolve' || command === 'restore';
  if (!folder || (needsPath && !path) || (!needsPath && command !== 'history' && path) || extra.length > 0) {
    io.err(`sync ${command}: wrong arguments.\n\n${deps.usage}`);
    return syncExit.usage;
  }
  const where = await openSyncFolder(folder, values, io, deps.env);
  if (typeof where === 'number') return where;
  const rel = path === undefined ? undefined : relativeToRoot(where.root, path);
  if (rel === null) {
    io.err(`${path} is not inside ${where.root}.\n`);
    return syncExit.usage;
  }
  switch (command) {
    case 'conflicts':
      return listConflicts(where, io);
    case 'history':
      return listHistory(where, rel, values.cap, io);
    case 'restore':
      return restoreVersion(where, rel!, values.version, io);
    case 'resolve':
      return resolveConflict(where, rel!, values, deps);
  }
}

function listConflicts(where: SyncFolder, io: CliIo): number {
  const records = new FolderRecords(where.stateFile);
  try {
    const conflicts = records.conflicts();
    if (conflicts.length === 0) {
      io.out('No open conflicts.\n');
      return syncExit.ok;
    }
    for (const conflict of conflicts) {
      io.out(
        `${conflict.path}  (since ${new Date(conflict.at).toLocaleString()}; the agent's version is in ${conflict.remoteCopyPath})\n`,
      );
    }
    io.out(`Settle one with: agentdesk sync resolve ${where.root} <path> --keep mine|theirs|both\n`);
    return syncExit.conflicts;
  } finally {
    records.close();
  }
}

const choices: readonly ConflictChoice[] = ['mine', 'theirs', 'both'];

async function resolveConflict(
  where: SyncFolder,
  path: string,
  values: Values,
  deps: FolderCommandDeps,
): Promise<number> {
  const { io } = deps;
  const choice = values.keep as ConflictChoice | undefined;
  if (!choice || !choices.includes(choice)) {
    io.err('resolve needs --keep mine, --keep theirs or --keep both.\n');
    return syncExit.usage;
  }
  let synced;
  try {
    synced = SyncedFolder.claim(where, 'agentdesk sync resolve (command line)');
  } catch (error) {
    if (!(error instanceof FolderBusyError)) throw error;
    return askHolderToResolve(where, path, choice, error, io);
  }
  const agent = await connectAgent(where, values, io, deps.env, deps.secrets);
  if (typeof agent === 'number') {
    await synced.close();
    return agent;
  }
  const engine = synced.open(agent.remote, deps.trash ? { trash: deps.trash } : {});
  try {
    const conflict = synced.conflictAt(path);
    if (!conflict) {
      io.err(`${path} has no open conflict. See them with: agentdesk sync conflicts ${where.root}\n`);
      return syncExit.error;
    }
    const status = await engine.resolveConflict(conflict.key, choice);
    if (status.conflicts.some((c) => c.key === conflict.key)) {
      io.err(`${status.message ?? `${path} is still in conflict.`}\n`);
      return syncExit.conflicts;
    }
    io.out(`Resolved ${conflict.path}: kept ${choice === 'both' ? 'both versions' : choice}.\n`);
    return status.state === 'error' ? syncExit.error : syncExit.ok;
  } finally {
    await synced.close();
    await agent.close();
  }
}

function listHistory(
  where: SyncFolder,
  path: string | undefined,
  cap: string | undefined,
  io: CliIo,
): number {
  const history = new VersionHistory(where.stateFile);
  try {
    if (cap !== undefined) {
      const megabytes = Number(cap);
      if (!Number.isFinite(megabytes) || megabytes <= 0) {
        io.err('--cap takes a size in MB, for example --cap 500.\n');
        return syncExit.usage;
      }
      history.setCapBytes(megabytes * 1024 * 1024);
      io.out(`The history of this folder now keeps at most ${megabytes} MB.\n`);
    }
    const versions = history.list(path);
    const setAside = history.setAsideNote();
    if (setAside) io.out(`${historySetAsideWords(setAside, history.dir)}\n`);
    const use = historyUse(history);
    const useLine = `The history holds ${size(use.usedBytes)} of at most ${Number((use.capBytes / 1024 / 1024).toFixed(1))} MB (change it with --cap <MB>).\n`;
    if (versions.length === 0) {
      io.out(path ? `No kept versions of ${path}.\n` : 'No kept versions yet.\n');
      io.out(useLine);
      return syncExit.ok;
    }
    let current = '';
    for (const version of versions) {
      if (version.path !== current) {
        current = version.path;
        io.out(`${current}\n`);
      }
      io.out(
        `  #${version.id}  ${new Date(version.at).toLocaleString()}  ${sourceWords(version)}  ${size(version.size)}\n`,
      );
    }
    io.out(`Put one back with: agentdesk sync restore ${where.root} <path> --version <n>\n`);
    io.out(useLine);
    return syncExit.ok;
  } finally {
    history.close();
  }
}

async function restoreVersion(
  where: SyncFolder,
  path: string,
  versionArg: string | undefined,
  io: CliIo,
): Promise<number> {
  const history = new VersionHistory(where.stateFile);
  try {
    const id = versionArg === undefined ? undefined : Number(versionArg.replace(/^#/, ''));
    const version = await versionToRestore(where.root, history, path, id);
    if (!version) {
      io.err(
        versionArg === undefined
          ? `No other kept version of ${path}.\n`
          : `${path} has no version ${versionArg}. See them with: agentdesk sync history ${where.root} ${path}\n`,
      );
      return syncExit.error;
    }
    await restoreKeptVersion(where.root, history, version);
    const owner = folderOwner(where.stateFile);
    io.out(
      `Restored ${path} to version #${version.id} (${new Date(version.at).toLocaleString()}, ${sourceWords(version)}). ` +
        (owner
          ? `${owner.who} (process ${owner.pid}) sends it to the agent now.\n`
          : 'The next sync sends it to the agent.\n'),
    );
    return syncExit.ok;
  } finally {
    history.close();
  }
}

/** A path as the person typed it (relative to the folder, or absolute inside it), in the folder's terms. */
function relativeToRoot(root: string, path: string): string | null {
  const rel = isAbsolute(path) ? relative(root, path) : path.replace(/^\.\//, '');
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  return rel.split('\\').join('/');
}

function sourceWords(version: VersionRecord): string {
  return version.source === 'remote' ? "the agent's" : 'yours';
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
