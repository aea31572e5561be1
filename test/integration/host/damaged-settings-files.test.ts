import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyUiState, readUiState, writeUiState } from '../../../src/core/host/platform/ui-state-file';
import { LOCAL_PROFILE_ID, openProfileStore } from '../../../src/core/profiles/profile-store';

// A damaged profiles.json or ui-state.json (issue 38, item 4): a torn write or random bytes are set aside
// under a dated name, kept byte for byte, and the file is rebuilt by the next save. Real files on disk.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-damaged-json-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const damagedContents = ['{"version": 1, "profiles": [{"id": "lo', '\u0000\u00ff\u0013garbage'];

async function asideOf(name: string): Promise<string[]> {
  return (await readdir(dir)).filter((entry) => entry.startsWith(`${name}.damaged-`));
}

describe('damaged settings files', () => {
  for (const damaged of damagedContents)
    it(`profiles.json (${JSON.stringify(damaged.slice(0, 12))}…) is set aside and rebuilt`, async () => {
      const filePath = join(dir, 'profiles.json');
      await writeFile(filePath, damaged);
      const store = await openProfileStore({ filePath });
      expect(store.state()).toEqual({ profiles: [], activeProfileId: null });
      const [aside] = await asideOf('profiles');
      expect(aside).toMatch(/^profiles\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.json$/);
      expect(await readFile(join(dir, aside!), 'utf8')).toBe(damaged);
      await store.addLocal();
      const reopened = await openProfileStore({ filePath });
      expect(reopened.active()?.id).toBe(LOCAL_PROFILE_ID);
      expect(await asideOf('profiles')).toHaveLength(1);
    });

  it('ui-state.json that is not JSON is set aside and rebuilt; a known file with an odd value is kept', async () => {
    const filePath = join(dir, 'ui-state.json');
    await writeFile(filePath, '{"lastAgentId": "a1", "sidebarWid');
    expect(await readUiState(filePath)).toEqual(emptyUiState);
    const [aside] = await asideOf('ui-state');
    expect(await readFile(join(dir, aside!), 'utf8')).toBe('{"lastAgentId": "a1", "sidebarWid');
    await writeUiState(filePath, { ...emptyUiState, lastAgentId: 'a2' });
    expect((await readUiState(filePath)).lastAgentId).toBe('a2');
    // One value out of range falls back alone, as before: the file is not damaged.
    await writeFile(filePath, JSON.stringify({ lastAgentId: 'a3', sidebarWidth: 5 }));
    expect(await readUiState(filePath)).toMatchObject({ lastAgentId: 'a3', sidebarWidth: null });
    expect(await asideOf('ui-state')).toHaveLength(1);
  });
});
