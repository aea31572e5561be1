import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { readSkillFrontmatter } from '../agent-kit/skill-frontmatter';
import { WorkspaceFiles } from './workspace-files';
import { exclusive } from '../../shared/timing/exclusive';
import {
  TEMP_PREFIX,
  WorkspacePathError,
  tempName,
  parseRelativePath,
  resolveInside,
} from '../workspace/workspace-paths';

export const SKILL_SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;

export type Skill = {
  slug: string;
  description: string;
  files: string[];
};

export interface SkillFile {
  /** Path relative to the skill folder (POSIX). */
  name: string;
  bytes: Uint8Array;
}

export type SkillErrorCode = 'invalid_slug' | 'no_frontmatter' | 'invalid_asset' | 'not_found';

export class SkillError extends Error {
  constructor(
    readonly code: SkillErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SkillError';
  }
}

export function checkSlug(slug: string): void {
  if (!SKILL_SLUG.test(slug)) {
    throw new SkillError(
      'invalid_slug',
      `The skill slug "${slug.slice(0, 80)}" must match ^[a-z0-9][a-z0-9-]{0,63}$ (lowercase letters, digits, dashes).`,
    );
  }
}

/**
 * Checks a skill's files before anything touches the disk: SKILL.md with frontmatter, asset names that
 * are safe relative paths and never SKILL.md itself. Returns the frontmatter description.
 */
export function validateSkill(markdown: string, assets: readonly SkillFile[]): string {
  const front = readSkillFrontmatter(markdown);
  if (!front.ok) throw new SkillError('no_frontmatter', front.message);
  const seen = new Set<string>();
  for (const asset of assets) {
    let rel;
    try {
      rel = parseRelativePath(asset.name);
    } catch (err) {
      throw new SkillError('invalid_asset', `Asset "${asset.name}": ${(err as Error).message}`);
    }
    if (rel.rel === 'SKILL.md') {
      throw new SkillError('invalid_asset', 'An asset cannot be named SKILL.md; send it as "markdown".');
    }
    if (seen.has(rel.rel)) throw new SkillError('invalid_asset', `Asset "${rel.rel}" is given twice.`);
    seen.add(rel.rel);
  }
  return front.value.description;
}

/** A replaced skill waits under this name (then its slug) while the new one is renamed into place. */
const OLD_PREFIX = `${TEMP_PREFIX}old-`;
const swapping = new Set<string>();
const CUT_SWAP = new RegExp(`^${OLD_PREFIX.replace(/[.-]/g, '\\$&')}([a-z0-9][a-z0-9-]{0,63})-[0-9a-f]{12}$`);

/** Whether `name` is a replaced skill waiting aside (a swap under way, or one a kill cut). */
export function isCutSwapName(name: string): boolean {
  return CUT_SWAP.test(name);
}

/**
 * A service killed between a swap's two renames left the old skill aside and its slug empty: the old
 * one goes back (it never stopped being the installed skill). One aside while its slug is there is a
 * swap that was done but for the clean-up. Swaps under way in this process are left alone; another
 * process on the same folder can only be between its own two renames, and then keeps its old skill, whole.
 */
export async function recoverCutSwaps(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const slug = CUT_SWAP.exec(name)?.[1];
    const aside = path.join(dir, name);
    if (!slug || swapping.has(aside)) continue;
    await rename(aside, path.join(dir, slug)).catch(() => rm(aside, { recursive: true, force: true }));
  }
}

/**
 * The skills installed under one folder (`<base>/<prefix>/<slug>/SKILL.md` plus assets). The folder is
 * reached from `base` without following links, because the agent itself can write inside `base`.
 */
export class SkillsStore {
  constructor(
    private readonly base: string,
    private readonly prefix: readonly string[],
  ) {}

  private async dir(create: boolean): Promise<string | null> {
    const rel = { segments: [...this.prefix], rel: this.prefix.join('/') };
    if (create) {
      await mkdir(this.base, { recursive: true });
      const made = await resolveInside(this.base, rel, { createParents: true });
      if (!made.stat) {
        await mkdir(made.absolute).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err;
        });
      }
    }
    const resolved = await resolveInside(this.base, rel);
    if (!resolved.stat?.isDirectory()) return null;
    await recoverCutSwaps(resolved.absolute);
    return resolved.absolute;
  }

  async list(): Promise<Skill[]> {
    const dir = await this.dir(false);
    if (!dir) return [];
    const entries = await readdir(dir, { withFileTypes: true });
    const skills: Skill[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory() || !SKILL_SLUG.test(entry.name)) continue;
      const skill = await this.read(entry.name);
      if (skill) skills.push(skill.skill);
    }
    return skills.sort((a, b) => a.slug.localeCompare(b.slug));
  }

  /** One skill with all its files, or null when it is not installed (or has no SKILL.md). */
  async read(slug: string): Promise<{ skill: Skill; files: SkillFile[] } | null> {
    checkSlug(slug);
    const dir = await this.dir(false);
    if (!dir) return null;
    const own = await resolveInside(dir, { segments: [slug], rel: slug });
    if (!own.stat?.isDirectory()) return null;
    const folder = new WorkspaceFiles(own.absolute);
    let listing;
    try {
      listing = await folder.list({ segments: [], rel: '' });
    } catch (err) {
      if (err instanceof WorkspacePathError) return null;
      throw err;
    }
    if (!listing.files.some((f) => f.path === 'SKILL.md')) return null;
    const files: SkillFile[] = [];
    for (const f of listing.files) {
      files.push({ name: f.path, bytes: await folder.read(parseRelativePath(f.path)) });
    }
    const markdown = Buffer.from(files.find((f) => f.name === 'SKILL.md')!.bytes).toString('utf8');
    const front = readSkillFrontmatter(markdown);
    return {
      skill: {
        slug,
        description: front.ok ? front.value.description : '',
        files: listing.files.map((f) => f.path),
      },
      files,
    };
  }

  /**
   * Install (or replace) a skill: the new folder is written beside the old one and swapped in, so the
   * agent never sees half a skill. Returns the file names and the total bytes written.
   */
  async install(
    slug: string,
    markdown: string,
    assets: readonly SkillFile[],
  ): Promise<{ files: string[]; bytes: number }> {
    checkSlug(slug);
    validateSkill(markdown, assets);
    // One write of this skills folder at a time: two swaps of one slug would race on their renames.
    return exclusive(this.lockKey(), () => this.installNow(slug, markdown, assets));
  }

  private lockKey(): string {
    return `skills:${path.resolve(this.base, ...this.prefix)}`;
  }

  private async installNow(
    slug: string,
    markdown: string,
    assets: readonly SkillFile[],
  ): Promise<{ files: string[]; bytes: number }> {
    const dir = (await this.dir(true)) as string;
    const staging = path.join(dir, tempName());
    await mkdir(staging);
    try {
      const store = new WorkspaceFiles(staging);
      const all: SkillFile[] = [{ name: 'SKILL.md', bytes: Buffer.from(markdown, 'utf8') }, ...assets];
      let bytes = 0;
      for (const file of all) {
        const written = await store.write(parseRelativePath(file.name), file.bytes);
        bytes += written.bytes;
      }
      const target = path.join(dir, slug);
      const previous = path.join(dir, `${OLD_PREFIX}${slug}-${randomBytes(6).toString('hex')}`);
      // Marked as under way, so a read meanwhile does not take the old skill for a cut swap's.
      swapping.add(previous);
      let hadPrevious = false;
      try {
        hadPrevious = await rename(target, previous).then(
          () => true,
          (err: NodeJS.ErrnoException) => {
            if (err.code === 'ENOENT') return false;
            throw err;
          },
        );
        await rename(staging, target).catch(async (err: unknown) => {
          // Put the old skill back rather than leave the slug empty and a temp folder behind.
          if (hadPrevious) await rename(previous, target).catch(() => undefined);
          throw err;
        });
      } finally {
        swapping.delete(previous);
      }
      if (hadPrevious) await rm(previous, { recursive: true, force: true });
      return { files: all.map((f) => f.name).sort(), bytes };
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      throw err;
    }
  }

  /** Remove a skill; false when it was not installed. */
  async remove(slug: string): Promise<boolean> {
    checkSlug(slug);
    return exclusive(this.lockKey(), () => this.removeNow(slug));
  }

  private async removeNow(slug: string): Promise<boolean> {
    const dir = await this.dir(false);
    if (!dir) return false;
    const resolved = await resolveInside(dir, { segments: [slug], rel: slug });
    if (!resolved.stat) return false;
    await rm(resolved.absolute, { recursive: true, force: true });
    return true;
  }

  /** Copy every skill of this store into another (engine switch keeps skills). */
  async copyTo(other: SkillsStore): Promise<void> {
    for (const skill of await this.list()) {
      const full = await this.read(skill.slug);
      if (!full) continue;
      const markdown = Buffer.from(full.files.find((f) => f.name === 'SKILL.md')!.bytes).toString('utf8');
      const front = readSkillFrontmatter(markdown);
      if (!front.ok) continue;
      await other.install(
        skill.slug,
        markdown,
        full.files.filter((f) => f.name !== 'SKILL.md'),
      );
    }
  }
}
