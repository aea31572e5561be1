import { z } from 'zod';
import { readWorkspaceText, writeWorkspaceFile } from '../../workspace/workspace-io';
import type { AgentTool } from './agent-tool';
import { insideWorkspace, shown } from './workspace-paths';

const Input = z.object({
  path: z.string().describe('File to write, relative to the workspace; its folders are made as needed.'),
  content: z.string().describe('The whole new content of the file.'),
});

/** A file's text, or null when it does not exist yet. */
export async function currentText(root: string, absolute: string): Promise<string | null> {
  try {
    return await readWorkspaceText(root, absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export function writeFileTool(root: string): AgentTool<z.infer<typeof Input>> {
  return {
    name: 'write_file',
    description: 'Writes a whole file of the workspace, creating it or replacing its content.',
    inputSchema: Input,
    kind: 'edit',
    asks: true,
    title: ({ path }) => `Write ${path}`,
    async preview({ path, content }) {
      const absolute = await insideWorkspace(root, path);
      return {
        path: absolute,
        change: { path: absolute, oldText: await currentText(root, absolute), newText: content },
      };
    },
    async run({ path, content }) {
      const absolute = await insideWorkspace(root, path);
      const oldText = await currentText(root, absolute);
      await writeWorkspaceFile(root, absolute, content);
      const bytes = Buffer.byteLength(content);
      return {
        output: `Wrote ${bytes} bytes to ${shown(root, absolute)}.`,
        path: absolute,
        change: { path: absolute, oldText, newText: content },
      };
    },
  };
}
