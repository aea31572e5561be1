import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Agent ids become folder names: keep them to a safe alphabet. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** `<dataDir>/agents/<agentId>`: the engine's per-agent folder (session map lives here, outside the workspace). */
export function agentDir(dataDir: string, agentId: string): string {
  if (!SAFE_ID.test(agentId))
    throw new Error(`Invalid agent id for a folder name: ${JSON.stringify(agentId)}`);
  return join(resolve(dataDir), 'agents', agentId);
}

/** `<dataDir>/agents/<agentId>/work`: the agent's persistent workspace (the API's `/data/work`). */
export function agentWorkspaceDir(dataDir: string, agentId: string): string {
  return join(agentDir(dataDir, agentId), 'work');
}

/** True when `target` is `root` or below it (both absolute, normalised). */
function isWithin(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Resolves `path` (absolute, or relative to `root`) and returns it only if it
 * stays inside `root` lexically; null otherwise.
 */
export function resolveLexically(root: string, path: string): string | null {
  const absRoot = resolve(root);
  const target = resolve(absRoot, path);
  return isWithin(absRoot, target) ? target : null;
}

/** Shows an absolute path relative to the workspace when inside it (API paths are workspace-relative). */
export function displayPath(root: string, path: string): string {
  const absRoot = resolve(root);
  const target = resolve(absRoot, path);
  if (!isWithin(absRoot, target)) return target;
  const rel = relative(absRoot, target).split(sep).join('/');
  return rel === '' ? '.' : rel;
}
