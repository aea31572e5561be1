import { LIMITS } from '../../shared/api';
import { validateMcpServers, type McpServer } from './mcp-servers';
import { SKILL_SLUG, validateSkill, type SkillFile, type SkillsStore } from './skills-store';
import type { WorkspaceFiles } from './workspace-files';
import { parseRelativePath } from '../workspace/workspace-paths';

/** One bundle file with its bytes (the API carries them base64). */
export interface BundleEntry {
  path: string;
  bytes: Uint8Array;
}

/** Where an agent's bundle parts live: prompt and MCP from the settings, skills and knowledge on disk. */
export interface BundleSources {
  prompt: string;
  mcp: McpServer[];
  skills: SkillsStore;
  /** The folder holding `knowledge/` (the workspace of a machine agent, the bundle folder otherwise). */
  knowledgeBase: WorkspaceFiles;
}

/** `instructions.md`, `skills/<slug>/...`, `knowledge/...` and `mcp.json`, in that order. */
export async function assembleBundle(src: BundleSources): Promise<BundleEntry[]> {
  const entries: BundleEntry[] = [{ path: 'instructions.md', bytes: Buffer.from(src.prompt, 'utf8') }];
  for (const skill of await src.skills.list()) {
    const full = await src.skills.read(skill.slug);
    for (const file of full?.files ?? [])
      entries.push({ path: `skills/${skill.slug}/${file.name}`, bytes: file.bytes });
  }
  let knowledge: { path: string }[] = [];
  try {
    knowledge = (await src.knowledgeBase.list(parseRelativePath('knowledge'))).files;
  } catch {
    // No knowledge folder (or it is not a folder): the bundle simply has no knowledge.
  }
  for (const file of knowledge) {
    entries.push({ path: file.path, bytes: await src.knowledgeBase.read(parseRelativePath(file.path)) });
  }
  entries.push({
    path: 'mcp.json',
    bytes: Buffer.from(`${JSON.stringify({ servers: src.mcp }, null, 2)}\n`, 'utf8'),
  });
  return entries;
}

/** What a posted bundle asks for, decided before anything is written. */
export interface BundlePlan {
  /** The new prompt ('' when the bundle has no instructions.md: the bundle is the whole truth). */
  prompt: string | null;
  /** The new MCP list, or null to keep the saved one (mcp.json was invalid and is ignored). */
  mcp: McpServer[] | null;
  skills: Map<string, { markdown: string; assets: SkillFile[] }>;
  knowledge: BundleEntry[];
  applied: string[];
  ignored: string[];
  /** Plain sentences explaining each ignored part. */
  reasons: string[];
}

export type PlanResult = { ok: true; plan: BundlePlan } | { ok: false; tooLarge: string };

/**
 * Reads a posted bundle as the WHOLE bundle: what it holds replaces the agent's instructions, skills,
 * knowledge and MCP list; parts it lacks are removed (an absent mcp.json is an empty list, an absent
 * instructions.md an empty prompt). Unusable parts are ignored (listed in `ignored`, with a reason)
 * and leave the saved state of that part alone. Any file over 10 MB refuses the whole bundle.
 */
export function planBundle(files: readonly { path: string; contentBase64: string }[]): PlanResult {
  const decoded: BundleEntry[] = [];
  for (const file of files) {
    const bytes = Buffer.from(file.contentBase64, 'base64');
    if (bytes.byteLength > LIMITS.workspaceFileBytesMax) return { ok: false, tooLarge: file.path };
    decoded.push({ path: file.path, bytes });
  }
  const plan: BundlePlan = {
    prompt: '',
    mcp: [],
    skills: new Map(),
    knowledge: [],
    applied: [],
    ignored: [],
    reasons: [],
  };
  const ignore = (path: string, why: string) => {
    plan.ignored.push(path);
    plan.reasons.push(`${path}: ${why}`);
  };
  const seen = new Set<string>();
  const skillFiles = new Map<string, BundleEntry[]>();

  for (const entry of decoded) {
    let rel: string;
    try {
      rel = parseRelativePath(entry.path).rel;
    } catch (err) {
      ignore(entry.path, (err as Error).message);
      continue;
    }
    if (seen.has(rel)) {
      ignore(entry.path, 'the path appears twice; the first one is used.');
      continue;
    }
    seen.add(rel);
    const entryRel = { path: rel, bytes: entry.bytes };
    if (rel === 'instructions.md') {
      const text = Buffer.from(entry.bytes).toString('utf8');
      if (text.length > LIMITS.promptMax) {
        plan.prompt = null;
        ignore(rel, `the prompt is longer than ${LIMITS.promptMax} characters; the saved one is kept.`);
      } else {
        plan.prompt = text;
        plan.applied.push(rel);
      }
    } else if (rel === 'mcp.json') {
      const checked = readMcpJson(entry.bytes);
      if (checked.ok) {
        plan.mcp = checked.servers;
        plan.applied.push(rel);
      } else {
        plan.mcp = null;
        ignore(rel, `${checked.message} The saved MCP list is kept.`);
      }
    } else if (rel.startsWith('skills/')) {
      const [, slug, ...rest] = rel.split('/');
      if (!slug || rest.length === 0) ignore(rel, 'skill files go in skills/<slug>/.');
      else if (!SKILL_SLUG.test(slug)) ignore(rel, `"${slug}" is not a valid skill slug.`);
      else
        skillFiles.set(slug, [
          ...(skillFiles.get(slug) ?? []),
          { path: rest.join('/'), bytes: entryRel.bytes },
        ]);
    } else if (rel.startsWith('knowledge/')) {
      plan.knowledge.push(entryRel);
      plan.applied.push(rel);
    } else {
      ignore(rel, 'only instructions.md, mcp.json, skills/<slug>/... and knowledge/... belong in a bundle.');
    }
  }

  for (const [slug, entries] of skillFiles) {
    const paths = entries.map((e) => `skills/${slug}/${e.path}`);
    const skillMd = entries.find((e) => e.path === 'SKILL.md');
    if (!skillMd) {
      for (const p of paths)
        ignore(p, `skill "${slug}" has no SKILL.md; the installed one (if any) is kept.`);
      continue;
    }
    const markdown = Buffer.from(skillMd.bytes).toString('utf8');
    const assets = entries.filter((e) => e !== skillMd).map((e) => ({ name: e.path, bytes: e.bytes }));
    try {
      validateSkill(markdown, assets);
    } catch (err) {
      for (const p of paths) ignore(p, `${(err as Error).message} The installed skill (if any) is kept.`);
      continue;
    }
    plan.skills.set(slug, { markdown, assets });
    plan.applied.push(...paths);
  }
  return { ok: true, plan };
}

function readMcpJson(bytes: Uint8Array): { ok: true; servers: McpServer[] } | { ok: false; message: string } {
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return { ok: false, message: 'mcp.json is not valid JSON.' };
  }
  const servers =
    typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (data as { servers?: unknown }).servers
      : undefined;
  const checked = validateMcpServers(servers ?? []);
  return checked.ok ? checked : { ok: false, message: checked.message };
}

/** Skill slugs present in a plan, valid or not: a skill the bundle names but could not use is kept. */
export function namedSkillSlugs(files: readonly { path: string }[]): Set<string> {
  const slugs = new Set<string>();
  for (const f of files) {
    const parts = f.path.split('/');
    if (parts[0] === 'skills' && parts[1]) slugs.add(parts[1]);
  }
  return slugs;
}
