import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { AgentTool } from './agent-tool';
import { workspaceFiles } from './list-files';
import { insideWorkspace } from './workspace-paths';

const Input = z.object({
  text: z.string().min(1).describe('The text to find (plain text, not a pattern).'),
  path: z
    .string()
    .optional()
    .describe('Folder to search, relative to the workspace; the whole workspace when absent.'),
  caseSensitive: z.boolean().optional(),
});

const MAX_MATCHES = 200;
const MAX_FILE_BYTES = 2_000_000;

export function searchTextTool(root: string): AgentTool<z.infer<typeof Input>> {
  return {
    name: 'search_text',
    description: 'Finds lines containing a text in the workspace’s files; answers path:line: the line.',
    inputSchema: Input,
    kind: 'search',
    asks: false,
    title: ({ text }) => `Search for “${text}”`,
    async run({ text, path, caseSensitive }, signal) {
      const folder = await insideWorkspace(root, path ?? '.');
      const wanted = caseSensitive ? text : text.toLowerCase();
      const matches: string[] = [];
      for (const file of await workspaceFiles(root, folder)) {
        if (signal.aborted || matches.length >= MAX_MATCHES) break;
        if (file.stat.size > MAX_FILE_BYTES) continue;
        const content = await readFile(file.absolute).catch(() => null);
        if (!content || content.includes(0)) continue; // gone, or not text
        content
          .toString('utf8')
          .split('\n')
          .forEach((line, i) => {
            const hay = caseSensitive ? line : line.toLowerCase();
            if (matches.length < MAX_MATCHES && hay.includes(wanted))
              matches.push(`${file.rel}:${i + 1}: ${line.slice(0, 300)}`);
          });
      }
      const more = matches.length >= MAX_MATCHES ? `\n[stopped at ${MAX_MATCHES} matches]` : '';
      return {
        output: matches.length ? matches.join('\n') + more : `No line contains “${text}”.`,
        path: folder,
      };
    },
  };
}
