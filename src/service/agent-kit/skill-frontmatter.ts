import { parse as parseYaml } from 'yaml';

export interface SkillFrontmatter {
  name?: string;
  description: string;
}

export type FrontmatterResult = { ok: true; value: SkillFrontmatter } | { ok: false; message: string };

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/**
 * Read the YAML frontmatter a SKILL.md must start with: a `---` line, a YAML mapping holding at least a
 * non-empty `description` (what the agent reads to decide when to use the skill), and a closing `---`.
 */
export function readSkillFrontmatter(markdown: string): FrontmatterResult {
  const open = OPENING.exec(markdown);
  if (!open) {
    return { ok: false, message: 'SKILL.md must start with YAML frontmatter between "---" lines.' };
  }
  const rest = markdown.slice(open[0].length);
  const close = CLOSING.exec(rest);
  if (!close) return { ok: false, message: 'The SKILL.md frontmatter has no closing "---" line.' };
  let data: unknown;
  try {
    data = parseYaml(rest.slice(0, close.index));
  } catch (err) {
    return { ok: false, message: `The SKILL.md frontmatter is not valid YAML: ${(err as Error).message}` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, message: 'The SKILL.md frontmatter must be a YAML mapping (key: value lines).' };
  }
  const record = data as Record<string, unknown>;
  const description = record['description'];
  if (typeof description !== 'string' || description.trim() === '') {
    return { ok: false, message: 'The SKILL.md frontmatter needs a non-empty "description".' };
  }
  const name = record['name'];
  if (name !== undefined && typeof name !== 'string') {
    return { ok: false, message: 'The SKILL.md frontmatter "name" must be a string.' };
  }
  return { ok: true, value: { description: description.trim(), ...(name ? { name } : {}) } };
}
