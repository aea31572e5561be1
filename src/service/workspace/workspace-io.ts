import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { changingFile } from './exclusive';
import { withFoldersAgain } from './folders-again';
import { parseRelativePath, resolveInside, WorkspacePathError, type RelativePath } from './workspace-paths';

// Not defined on Windows, where links need privileges to create; lstat of every component still applies.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * `target` (absolute, or relative to `root`) as a validated path relative to `root`; anything that leaves the
 * root lexically is refused. Links are checked when the path is resolved, by `resolveInside`.
 */
export function workspaceRelative(root: string, target: string): RelativePath {
  const rel = path.relative(path.resolve(root), path.resolve(root, target));
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new WorkspacePathError('invalid_path', `The path "${target}" is outside the workspace.`);
  }
  return parseRelativePath(rel.split(path.sep).join('/'), { allowRoot: true });
}

/** The absolute path of `target` inside `root` with no link on the way, or null (outside, or through a link). */
export async function confinedPath(root: string, target: string): Promise<string | null> {
  try {
    return (await resolveInside(root, workspaceRelative(root, target))).absolute;
  } catch (error) {
    if (error instanceof WorkspacePathError) return null;
    throw error;
  }
}

/**
 * Reads a text file of the workspace. Every component is lstat'ed (no folder link), and the file itself is
 * opened with O_NOFOLLOW, so a link swapped in after the check fails instead of being followed.
 */
export async function readWorkspaceText(root: string, target: string): Promise<string> {
  const { absolute } = await resolveInside(root, workspaceRelative(root, target));
  const handle = await open(absolute, constants.O_RDONLY | NO_FOLLOW);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Writes a file of the workspace, creating its folders one by one; never through a link, dangling or not.
 * Returns the absolute path written.
 */
export async function writeWorkspaceFile(
  root: string,
  target: string,
  text: string | Uint8Array,
): Promise<string> {
  const rel = workspaceRelative(root, target);
  if (rel.segments.length === 0)
    throw new WorkspacePathError('is_directory', 'The workspace itself is a folder.');
  const { absolute, stat } = await resolveInside(root, rel, { createParents: true });
  if (stat?.isDirectory()) throw new WorkspacePathError('is_directory', `"${rel.rel}" is a folder.`);
  // One change of a file at a time (exclusive.ts): the sync's If-Match write or delete never takes this away.
  await changingFile(absolute, async () => {
    const handle = await withFoldersAgain(
      () => resolveInside(root, rel, { createParents: true }),
      () => open(absolute, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NO_FOLLOW),
    );
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
  });
  return absolute;
}
