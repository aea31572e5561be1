/**
 * Checks a folder the person chose for sync before any file is touched: a
 * full path (with `~` for the home folder), and never a folder whose sync
 * would sweep up far more than the agent's files (the whole disk, the home
 * folder, AgentDesk's own data, or another agent's sync folder).
 */
import { isAbsolute, join, parse, relative, resolve } from 'node:path';

export interface SyncRootContext {
  /** Used when the person gave no path. */
  defaultRoot: string;
  home: string;
  /** The app's data folder (sync state lives there). */
  dataDir: string;
  /** Folders other agents already sync, with their agent's name. */
  otherRoots: { root: string; agentName: string }[];
}

export type SyncRootChoice = { ok: true; root: string } | { ok: false; message: string };

/** True when `a` and `b` are the same folder or one holds the other. */
function overlaps(a: string, b: string): boolean {
  const inside = (child: string, parent: string) => {
    const rel = relative(parent, child);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  return inside(a, b) || inside(b, a);
}

export function chooseSyncRoot(input: string | undefined, context: SyncRootContext): SyncRootChoice {
  const typed = typeof input === 'string' ? input.trim() : '';
  if (typed.length > 4096 || typed.includes('\0')) {
    return { ok: false, message: 'That folder path cannot be used. Choose another folder.' };
  }
  let path = typed || context.defaultRoot;
  if (path === '~') path = context.home;
  else if (path.startsWith('~/') || path.startsWith('~\\')) path = join(context.home, path.slice(2));
  if (!isAbsolute(path)) {
    return {
      ok: false,
      message: `Type the folder's full path, for example ${context.defaultRoot}.`,
    };
  }
  const root = resolve(path);
  if (parse(root).root === root) {
    return { ok: false, message: 'Choose a folder of its own, not the top of a disk.' };
  }
  if (resolve(context.home) === root) {
    return { ok: false, message: 'Choose a folder inside your home folder, not the home folder itself.' };
  }
  if (overlaps(root, resolve(context.dataDir))) {
    return { ok: false, message: "That folder holds AgentDesk's own data. Choose another folder." };
  }
  const other = context.otherRoots.find((o) => overlaps(root, resolve(o.root)));
  if (other) {
    return {
      ok: false,
      message: `That folder overlaps the sync folder of ${other.agentName} (${other.root}). Choose another folder.`,
    };
  }
  return { ok: true, root };
}
