import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { readSkillFrontmatter } from '../agent-kit/skill-frontmatter';
import { SKILLS_DIR } from '../workspace/agent-layout';
import { workspaceFiles } from './tools/list-files';

/** What the agent is, before the person's prompt: goose's and Claude Code's kind of opening, short. */
const BASE = [
  'You are an assistant working in the person’s workspace, a folder on their computer.',
  'You can list, read, search, write, edit and delete its files with your tools; paths are relative to the workspace.',
  'Writes, edits, deletes and outside tools may ask the person first; when they refuse, accept it and say what you would have done.',
  'Read a file before you edit it, and keep your replies clear and to the point.',
].join('\n');

/**
 * The system prompt of a turn: our opening, then the agent's own prompt (its machine
 * configuration, beside the workspace: `promptMode` `append` adds it after the opening, `replace`
 * puts it instead), then its skills (name, description and where to read the whole SKILL.md) and
 * the files of its `knowledge/` folder.
 */
export async function systemPrompt(root: string): Promise<string> {
  // Read side by side: the turn's first request to the provider waits for all three.
  const [config, skills, knowledge] = await Promise.all([
    ownPrompt(root),
    skillLines(root),
    knowledgeLines(root),
  ]);
  const own = config?.prompt.trim() ?? '';
  const parts = config?.promptMode === 'replace' && own ? [own] : [BASE, ...(own ? [own] : [])];
  if (skills.length) {
    parts.push(
      `Skills you have (read a skill’s SKILL.md with read_file before you use it):\n${skills.join('\n')}`,
    );
  }
  if (knowledge.length) {
    parts.push(`Knowledge files you can read with read_file when they help:\n${knowledge.join('\n')}`);
  }
  return parts.join('\n\n');
}

/** The agent's prompt from its machine configuration (agent-config/machine-config.ts writes it beside the workspace). */
const MachinePrompt = z.object({ prompt: z.string(), promptMode: z.enum(['append', 'replace']) });

async function ownPrompt(root: string): Promise<z.infer<typeof MachinePrompt> | null> {
  try {
    const text = await readFile(join(dirname(root), 'machine', 'config.json'), 'utf8');
    const parsed = MachinePrompt.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function skillLines(root: string): Promise<string[]> {
  const folder = join(root, ...SKILLS_DIR.split('/'));
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const folders = entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name));
  const lines = await Promise.all(
    folders.map(async (entry) => {
      const path = `${SKILLS_DIR}/${entry.name}/SKILL.md`;
      const text = await readFile(join(root, path), 'utf8').catch(() => null);
      const front = text === null ? null : readSkillFrontmatter(text);
      if (!front?.ok) return null;
      return `- ${front.value.name ?? entry.name}: ${front.value.description.trim()} (${path})`;
    }),
  );
  return lines.filter((line) => line !== null);
}

async function knowledgeLines(root: string, max = 100): Promise<string[]> {
  const folder = join(root, 'knowledge');
  const files = await workspaceFiles(root, folder).catch(() => []);
  const lines = files.slice(0, max).map((f) => `- ${f.rel}`);
  if (files.length > max) lines.push(`- … and ${files.length - max} more (list_files knowledge)`);
  return lines;
}
