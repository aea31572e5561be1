/**
 * What of the remote listing reaches the planner: names that could escape the root or break on
 * some disk are refused (and reported); ignored names (the built-in list and .agentdeskignore)
 * and the engine's own copies are left out, so they are never downloaded, and never deleted.
 */
import type { Ignore } from 'ignore';
import type { RemoteEntry, SkippedPath } from './sync-plan-types';
import { isAlwaysIgnored, looksLikeConflictCopy, pathKey, sanitizeRemotePath } from './sync-paths';

/** What the sync asks of the root's ignore rules (the `ignore` package's, or none at all). */
export type PathRules = Pick<Ignore, 'ignores'>;

/**
 * Remote names that could escape the root or break on some disk never reach the planner, nor do
 * ignored ones (never downloaded, so never deleted either) or ones the engine's own copies hold.
 */
export function screenRemotePaths(
  listing: RemoteEntry[],
  rules: PathRules,
  copies: ReadonlySet<string>,
): { accepted: RemoteEntry[]; refused: SkippedPath[] } {
  const accepted = new Map<string, RemoteEntry>();
  const raw = new Map<string, string>();
  const refused: SkippedPath[] = [];
  for (const entry of listing) {
    if (isIgnored(entry.path, rules) || copies.has(pathKey(entry.path))) continue;
    // Named like the engine's copies but not one it made: left alone on both sides (the scanner
    // skips such a local name the same way), so it is never downloaded, nor deleted.
    if (looksLikeConflictCopy(entry.path)) {
      refused.push({ path: entry.path, reason: 'looks-like-copy' });
      continue;
    }
    const safe = sanitizeRemotePath(entry.path);
    if (!safe.ok) {
      refused.push({ path: entry.path, reason: 'invalid-name' });
      continue;
    }
    // Two names the server tells apart that are one name here (NFC and NFD): neither is carried,
    // or one would silently take the other's place.
    const twin = raw.get(safe.path);
    if (twin !== undefined && twin !== entry.path) {
      if (accepted.delete(safe.path)) refused.push({ path: twin, reason: 'name-clash' });
      refused.push({ path: entry.path, reason: 'name-clash' });
      continue;
    }
    raw.set(safe.path, entry.path);
    accepted.set(safe.path, { ...entry, path: safe.path });
  }
  return { accepted: [...accepted.values()], refused };
}

/** Whether a path is ignored: always-ignored names, or the root's .agentdeskignore (the file or any folder above it). */
function isIgnored(path: string, rules: PathRules): boolean {
  if (isAlwaysIgnored(path)) return true;
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i += 1) {
    if (rules.ignores(`${parts.slice(0, i).join('/')}/`)) return true;
  }
  return rules.ignores(path);
}
