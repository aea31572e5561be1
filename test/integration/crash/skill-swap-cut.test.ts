/**
 * A skill replaced while the service is killed between the swap's two renames (the moment is a few
 * microseconds wide, so service-kill.test.ts rarely lands on it; here the disk is left exactly as that
 * kill leaves it): the old skill aside under its temporary name, the new one whole in its staging folder,
 * the slug itself empty. The next look at the skills puts the old skill back, whole, and the next install
 * replaces it as usual.
 */
import { mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SkillsStore } from '../../../src/service/agent-config/skills-store';
import { TEMP_PREFIX } from '../../../src/service/workspace/workspace-paths';

let base = '';
afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

const skill = (version: number) => `---\ndescription: version ${version}\n---\n\nversion ${version}\n`;
const asset = (version: number) => ({
  name: 'data/table.csv',
  bytes: Buffer.from(`a,b\n${version},${version}\n`),
});

// Names as the store makes them (a prefix, the slug, 12 hex digits), with plainly made-up digits.
const STAGED = `${TEMP_PREFIX}000000000001`;
const ASIDE = `${TEMP_PREFIX}old-notes-000000000002`;
const SPARE_ASIDE = `${TEMP_PREFIX}old-notes-000000000003`;

describe('a skill swap cut by a kill', () => {
  it('gives the old skill back, whole, and installs over it afterwards', async () => {
    base = await mkdtemp(join(tmpdir(), 'agentdesk-skill-swap-'));
    const store = new SkillsStore(base, ['.agents', 'skills']);
    await store.install('notes', skill(1), [asset(1)]);
    const folder = join(base, '.agents', 'skills');
    // What a kill after `rename(target, previous)` leaves: the new version staged, the old aside.
    await new SkillsStore(join(folder, STAGED), []).install('x', skill(2), [asset(2)]);
    await rename(join(folder, 'notes'), join(folder, ASIDE));

    const restarted = new SkillsStore(base, ['.agents', 'skills']);
    const back = await restarted.read('notes');
    expect(back?.skill.description).toBe('version 1');
    expect(back?.files.map((f) => [f.name, Buffer.from(f.bytes).toString()])).toEqual([
      ['SKILL.md', skill(1)],
      ['data/table.csv', 'a,b\n1,1\n'],
    ]);
    expect((await restarted.list()).map((s) => s.slug)).toEqual(['notes']);
    expect(await readdir(folder)).not.toContain(ASIDE);

    await restarted.install('notes', skill(3), [asset(3)]);
    expect((await restarted.read('notes'))?.skill.description).toBe('version 3');
    expect((await readdir(folder)).filter((name) => name.startsWith('.agentdesk-tmp-old-'))).toEqual([]);
  });

  it('drops the aside copy of a swap that was done but for the clean-up', async () => {
    const store = new SkillsStore(base, ['other']);
    await store.install('notes', skill(4), []);
    const folder = join(base, 'other');
    await new SkillsStore(folder, []).install('spare', skill(3), []);
    await rename(join(folder, 'spare'), join(folder, SPARE_ASIDE));
    expect((await store.read('notes'))?.skill.description).toBe('version 4');
    expect(await readdir(folder)).toEqual(['notes']);
  });
});
