import type { InstalledSkill, SkillPutBody } from '../../shared/api';
import { SKILLS_DIR } from '../workspace/agent-layout';
import { CATALOG_PIN, CATALOG_REPO, catalogSkill } from './community-catalog';
import type { SkillFile, SkillsStore } from './skills-store';
import { machinePath } from './workspace-files';

/**
 * PUT skills/{slug}: installs the skill given in the body (assets in base64), or the one of that slug in the
 * vendored community catalog. Null when `fromCatalog` names a slug the catalog lacks. A SKILL.md without
 * frontmatter or a bad asset name throws `SkillError`.
 */
export async function installSkill(
  skills: SkillsStore,
  slug: string,
  body: SkillPutBody,
): Promise<InstalledSkill | null> {
  let markdown: string;
  let assets: SkillFile[];
  let source = '';
  if (body.fromCatalog) {
    const item = catalogSkill(slug);
    if (!item) return null;
    markdown = item.files['SKILL.md'] ?? '';
    assets = Object.entries(item.files)
      .filter(([name]) => name !== 'SKILL.md')
      .map(([name, text]) => ({ name, bytes: Buffer.from(text, 'utf8') }));
    source = ` from the community catalog (${CATALOG_REPO}, pinned ${CATALOG_PIN})`;
  } else {
    markdown = body.markdown ?? '';
    assets = (body.assets ?? []).map((a) => ({
      name: a.name,
      bytes: Buffer.from(a.contentBase64, 'base64'),
    }));
  }
  const installed = await skills.install(slug, markdown, assets);
  const where = machinePath(`${SKILLS_DIR}/${slug}`);
  return {
    slug,
    files: installed.files,
    bytes: installed.bytes,
    note: `Installed${source} in ${where}, where the agent sees it; it is used from the agent's next conversation.`,
  };
}
