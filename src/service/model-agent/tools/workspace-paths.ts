import { confinedPath } from '../../workspace/workspace-io';
import { displayPath } from '../../workspace/agent-folders';

/**
 * The workspace tools' path guard, the service's own (workspace-io.ts): a path relative to the
 * workspace, no `..` out of it, no symbolic link on the way. Throws words for the model otherwise.
 */
export async function insideWorkspace(root: string, path: string): Promise<string> {
  const absolute = await confinedPath(root, path.replace(/^\/data\/work\/?/, '') || '.');
  if (!absolute)
    throw new Error(
      `"${path}" is outside the workspace (or goes through a link); use a path relative to the workspace.`,
    );
  return absolute;
}

/** A path as the model and the person see it: relative to the workspace. */
export const shown = (root: string, absolute: string) => displayPath(root, absolute);
