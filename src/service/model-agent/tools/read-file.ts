import { z } from 'zod';
import { readWorkspaceText } from '../../workspace/workspace-io';
import { capText, type AgentTool } from './agent-tool';
import { insideWorkspace } from './workspace-paths';

const Input = z.object({
  path: z.string().describe('File to read, relative to the workspace.'),
  fromLine: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('First line to read (1-based); the start when absent.'),
  lines: z.number().int().min(1).optional().describe('How many lines to read; all when absent.'),
});

export function readFileTool(root: string): AgentTool<z.infer<typeof Input>> {
  return {
    name: 'read_file',
    description: 'Reads a text file of the workspace (the skills’ SKILL.md files and knowledge/ too).',
    inputSchema: Input,
    kind: 'read',
    asks: false,
    title: ({ path }) => `Read ${path}`,
    async run({ path, fromLine, lines }) {
      const absolute = await insideWorkspace(root, path);
      const text = await readWorkspaceText(root, absolute);
      if (fromLine === undefined && lines === undefined) return { output: capText(text), path: absolute };
      const all = text.split('\n');
      const start = (fromLine ?? 1) - 1;
      return {
        output: capText(all.slice(start, lines ? start + lines : undefined).join('\n')),
        path: absolute,
      };
    },
  };
}
