import { z } from 'zod';
import { readWorkspaceText, writeWorkspaceFile } from '../../workspace/workspace-io';
import type { AgentTool, FileChange } from './agent-tool';
import { insideWorkspace, shown } from './workspace-paths';

const Input = z.object({
  path: z.string().describe('File to edit, relative to the workspace.'),
  oldText: z
    .string()
    .min(1)
    .describe('The exact text to replace, as it is in the file (with enough context to be unique).'),
  newText: z.string().describe('The text that replaces it.'),
  replaceAll: z.boolean().optional().describe('Replace every occurrence instead of exactly one.'),
});
type Input = z.infer<typeof Input>;

/** The file's text after the replacement; throws words for the model when the text is absent or not unique. */
async function edited(root: string, { path, oldText, newText, replaceAll }: Input): Promise<FileChange> {
  const absolute = await insideWorkspace(root, path);
  const before = await readWorkspaceText(root, absolute);
  const count = before.split(oldText).length - 1;
  if (count === 0)
    throw new Error(`The text to replace is not in ${path}; read the file and copy the text exactly.`);
  if (count > 1 && !replaceAll) {
    throw new Error(
      `The text to replace occurs ${count} times in ${path}; give more context to make it unique, or set replaceAll.`,
    );
  }
  const after = replaceAll ? before.split(oldText).join(newText) : before.replace(oldText, () => newText);
  return { path: absolute, oldText: before, newText: after };
}

export function editFileTool(root: string): AgentTool<Input> {
  return {
    name: 'edit_file',
    description: 'Edits a file of the workspace by replacing an exact piece of its text with new text.',
    inputSchema: Input,
    kind: 'edit',
    asks: true,
    title: ({ path }) => `Edit ${path}`,
    async preview(input) {
      const change = await edited(root, input);
      return { path: change.path, change };
    },
    async run(input) {
      // Worked out again: the file may have changed while the person was asked.
      const change = await edited(root, input);
      await writeWorkspaceFile(root, change.path, change.newText);
      return { output: `Edited ${shown(root, change.path)}.`, path: change.path, change };
    },
  };
}
