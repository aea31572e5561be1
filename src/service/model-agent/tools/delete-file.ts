import { rm, rmdir } from 'node:fs/promises';
import { z } from 'zod';
import { resolveInside } from '../../workspace/workspace-paths';
import { workspaceRelative } from '../../workspace/workspace-io';
import { changingFile } from '../../workspace/exclusive';
import type { AgentTool } from './agent-tool';
import { insideWorkspace, shown } from './workspace-paths';

const Input = z.object({
  path: z.string().describe('File (or empty folder) to delete, relative to the workspace.'),
});

export function deleteFileTool(root: string): AgentTool<z.infer<typeof Input>> {
  return {
    name: 'delete_file',
    description: 'Deletes a file, or an empty folder, of the workspace.',
    inputSchema: Input,
    kind: 'delete',
    asks: true,
    title: ({ path }) => `Delete ${path}`,
    async preview({ path }) {
      return { path: await insideWorkspace(root, path) };
    },
    async run({ path }) {
      const absolute = await insideWorkspace(root, path);
      if (absolute === root) throw new Error('The workspace itself cannot be deleted.');
      const { stat } = await resolveInside(root, workspaceRelative(root, absolute));
      if (!stat) throw new Error(`${path} does not exist.`);
      if (stat.isDirectory())
        await rmdir(absolute).catch(() => {
          throw new Error(`${path} is a folder that is not empty; delete its files first.`);
        });
      else await changingFile(absolute, () => rm(absolute));
      return { output: `Deleted ${shown(root, absolute)}.`, path: absolute };
    },
  };
}
