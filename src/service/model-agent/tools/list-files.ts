import { z } from 'zod';
import { walkFiles } from '../../workspace/workspace-walk';
import { capText, type AgentTool } from './agent-tool';
import { insideWorkspace, shown } from './workspace-paths';

const Input = z.object({
  path: z
    .string()
    .optional()
    .describe('Folder to list, relative to the workspace; the whole workspace when absent.'),
});

/** Folders nobody wants listed file by file. */
export const SKIPPED_FOLDERS = new Set([
  '.git',
  'node_modules',
  '.agentdesk-model-agent',
  '.agentdesk-demo',
  '.agentdesk-attachments',
]);

/** The workspace's files (links never followed, the skills folder left out) without the skipped folders. */
export async function workspaceFiles(root: string, folder: string) {
  const from = shown(root, folder);
  const segments = from === '.' ? [] : from.split('/');
  const files = await walkFiles(folder, segments);
  return files
    .filter((f) => !f.rel.split('/').some((part) => SKIPPED_FOLDERS.has(part)))
    .sort((a, b) => a.rel.localeCompare(b.rel));
}

export function listFilesTool(root: string): AgentTool<z.infer<typeof Input>> {
  return {
    name: 'list_files',
    description: 'Lists the files in the workspace (or in one folder of it), with their sizes in bytes.',
    inputSchema: Input,
    kind: 'read',
    asks: false,
    title: ({ path }) => (path ? `List files in ${path}` : 'List files'),
    async run({ path }) {
      const folder = await insideWorkspace(root, path ?? '.');
      const files = await workspaceFiles(root, folder);
      const max = 500;
      const lines = files.slice(0, max).map((f) => `${f.rel} (${f.stat.size} bytes)`);
      if (files.length > max) lines.push(`[… ${files.length - max} more files]`);
      return { output: capText(lines.length ? lines.join('\n') : '(no files)'), path: folder };
    },
  };
}
