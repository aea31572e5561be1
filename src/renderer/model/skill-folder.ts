import { parse as parseYaml } from 'yaml';
import { LIMITS, SkillSlug } from '../../shared/api';
import { slugify } from './slug';

/**
 * A skill folder picked or dropped by the person, checked before anything is read or sent: its size
 * against the 25 MB install payload (base64 in JSON, so sizes grow by a third), a SKILL.md at its
 * root with YAML frontmatter holding a `description` (what the service requires), and a slug the
 * API accepts. Pure: file contents come in as text or base64 already read.
 */
export interface PickedFile {
  /** Path inside the skill folder, with `/` separators. */
  path: string;
  size: number;
}

/** What the JSON body of PUT skills/{slug} will weigh, from the file sizes alone. */
export function skillPayloadBytes(files: readonly PickedFile[]): number {
  return files.reduce(
    (sum, f) => sum + (f.path === 'SKILL.md' ? f.size * 2 : Math.ceil(f.size / 3) * 4 + f.path.length + 40),
    64,
  );
}

/** The cap checked first: a plain sentence when the folder is too big to send, else undefined. */
export function skillSizeProblem(files: readonly PickedFile[]): string | undefined {
  const bytes = skillPayloadBytes(files);
  if (bytes <= LIMITS.skillPayloadBytesMax) return undefined;
  return `This skill folder is too big to install: about ${megabytes(bytes)} MB once encoded, and the limit is 25 MB.`;
}

export function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

export type SkillMarkdownCheck =
  { ok: true; name?: string; description: string } | { ok: false; problem: string };

/** The same frontmatter rule as the service: `---`, a YAML mapping with a non-empty description, `---`. */
export function checkSkillMarkdown(markdown: string): SkillMarkdownCheck {
  const open = /^\uFEFF?---[ \t]*\r?\n/.exec(markdown);
  if (!open) return { ok: false, problem: 'SKILL.md must start with YAML frontmatter between "---" lines.' };
  const rest = markdown.slice(open[0].length);
  const close = /^---[ \t]*$/m.exec(rest);
  if (!close) return { ok: false, problem: 'The SKILL.md frontmatter has no closing "---" line.' };
  let data: unknown;
  try {
    data = parseYaml(rest.slice(0, close.index));
  } catch {
    return { ok: false, problem: 'The SKILL.md frontmatter is not valid YAML.' };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { ok: false, problem: 'The SKILL.md frontmatter must be key: value lines.' };
  const { description, name } = data as Record<string, unknown>;
  if (typeof description !== 'string' || !description.trim())
    return { ok: false, problem: 'The SKILL.md frontmatter needs a non-empty "description".' };
  return { ok: true, description: description.trim(), ...(typeof name === 'string' ? { name } : {}) };
}

/** A slug for the skill: its frontmatter name, else the folder's name, lowered and hyphenated. */
export function skillSlug(name: string | undefined, folder: string): { slug: string; problem?: string } {
  const slug = slugify(name || folder, LIMITS.skillSlugMax);
  const valid = SkillSlug.safeParse(slug);
  return valid.success
    ? { slug }
    : { slug, problem: `"${slug}" cannot be a skill name: ${valid.error.issues[0]?.message}` };
}

/** Splits a folder's files into SKILL.md and the assets carried with it, with paths relative to the folder. */
export function skillFolderParts(paths: readonly string[]): {
  root: string;
  skillMd?: string;
  assets: string[];
} {
  const root = paths[0]?.split('/')[0] ?? '';
  const inside = paths.map((p) => (p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p));
  return {
    root,
    ...(inside.includes('SKILL.md') ? { skillMd: 'SKILL.md' } : {}),
    assets: inside.filter((p) => p !== 'SKILL.md'),
  };
}
