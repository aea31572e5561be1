import { createHash } from 'node:crypto';
import { apiRoutes, routePath } from '../../shared/api';
import catalogData from '../data/community-skills.json' with { type: 'json' };

export interface CatalogSkill {
  slug: string;
  description: string;
  license: string;
  /** File name (relative to the skill folder) → text. */
  files: Record<string, string>;
}

interface CatalogFile {
  repo: string;
  version: string;
  skills: CatalogSkill[];
}

const catalog = catalogData as unknown as CatalogFile;

/** A short hash of the vendored catalog: what a catalog `url` is pinned to. */
export const CATALOG_PIN = createHash('sha256')
  .update(JSON.stringify(catalog.skills))
  .digest('hex')
  .slice(0, 12);

export function catalogSkill(slug: string): CatalogSkill | null {
  return catalog.skills.find((s) => s.slug === slug) ?? null;
}

/** The catalog in the API's item shape. */
export function catalogItems(baseUrl: string, installed: ReadonlySet<string>) {
  return catalog.skills.map((s) => ({
    slug: s.slug,
    description: s.description,
    repo: catalog.repo,
    url: `${baseUrl}${routePath(apiRoutes.catalogSkillFolder, { slug: s.slug }, { v: CATALOG_PIN })}`,
    license: s.license,
    installed: installed.has(s.slug),
  }));
}

export const CATALOG_REPO = catalog.repo;
