/**
 * Issue 12, items 3 and 8, against an odd or hostile server: names in the agent's workspace that
 * this computer must not or cannot hold. The real `agentdesk sync --once` (cli-harness.ts) never
 * writes outside the folder, never crashes, lists each such name as "Not synced" with the reason,
 * exits 0, and never deletes the agent's file because it is absent here.
 *
 * Names the real local service stores (Windows-reserved names, two names differing only by case)
 * are stored through it. Names it refuses to store (`..`, absolute paths, backslashes, NUL, a
 * 300-character name, an NFD twin of an NFC name: it keeps one form) are added to its real listing
 * by the recording proxy (outsider-world.ts), the one fake part here, as a hostile server would
 * send them.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useOutsiderWorld } from './outsider-world';

const o = useOutsiderWorld();
const { w } = o;

const syncOnce = () =>
  w.startCli([w.folder, '--agent', w.agentId, '--server', o.proxy.url, '--once']).finished;

/** Every file under a folder, relative to it. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(folder.length + 1));
}

describe('names this computer must not hold', () => {
  it('Windows-reserved names and names that differ only by case: listed, never deleted, exit 0', async () => {
    const odd = ['CON', 'aux.txt', 'COM1.md', 'logs/LPT1', 'Case.txt', 'case.txt'];
    for (const path of odd) await w.writeRemote(path, `the agent's ${path}`);
    await w.writeRemote('plain.txt', 'an ordinary file');
    for (const run of [1, 2]) {
      const result = await syncOnce();
      expect(result.code, `run ${run}: ${result.out}${result.err}`).toBe(0);
      expect(result.err).toBe('');
      for (const path of odd) expect(result.out, path).toContain(`Not synced: work/${path} (`);
    }
    for (const path of odd) expect(await w.readRemote(path), path).toBe(`the agent's ${path}`);
    expect(await readFile(join(w.folder, 'work/plain.txt'), 'utf8')).toBe('an ordinary file');
    expect(o.proxy.seen.filter((s) => s.method === 'DELETE')).toEqual([]);
  }, 90_000);

  it('a listing with .., absolute paths, backslashes, NUL, a 300-character name and an NFD twin', async () => {
    await w.writeRemote('caf\u00e9.md', 'the NFC one');
    await w.writeRemote('plain.txt', 'an ordinary file');
    expect((await syncOnce()).code).toBe(0); // café.md is here now, in step
    const hostile = [
      '../outside.txt',
      '../../escaped.txt',
      '/tmp/absolute.txt',
      'sub/../../up.txt',
      'a\\..\\..\\back.txt',
      'C:\\windows.txt',
      'nul\u0000byte.txt',
      `${'x'.repeat(300)}.txt`,
      'cafe\u0301.md',
    ];
    o.proxy.add({
      method: 'GET',
      path: new RegExp(`/api/v2/agents/${w.agentId}/files/$`),
      fault: {
        kind: 'rewrite-json',
        rewrite: (body) => {
          const listing = body as { files: { path: string; size: number }[] };
          return { ...listing, files: [...listing.files, ...hostile.map((path) => ({ path, size: 7 }))] };
        },
      },
    });
    const outside = dirname(w.folder);
    const before = await filesUnder(outside);
    o.proxy.seen.length = 0;
    for (const run of [1, 2]) {
      const result = await syncOnce();
      expect(result.code, `run ${run}: ${result.out}${result.err}`).toBe(0);
      expect(result.err).toBe('');
      for (const path of hostile.filter((p) => !p.includes('\u0000') && !p.startsWith('cafe')))
        expect(result.out, path).toContain(`Not synced: work/${path} (a name the other side cannot take)`);
      // A NUL is never printed raw to the terminal.
      expect(result.out).not.toContain('\u0000');
      expect(result.out).toContain('Not synced: work/nul\\u0000byte.txt (a name the other side cannot take)');
      // Two names that are one here: neither takes the other's place.
      for (const path of ['cafe\u0301.md', 'caf\u00e9.md'])
        expect(result.out, path).toContain(
          `Not synced: work/${path} (another file has the same name but for letter case or Unicode form)`,
        );
    }
    // Nothing appeared outside the folder, and the ordinary file came down.
    const after = await filesUnder(outside);
    const ours = [w.folder, w.dataDir, w.home].map((dir) => `${dir.slice(outside.length + 1)}/`);
    expect(after.filter((p) => !before.includes(p) && !ours.some((dir) => p.startsWith(dir)))).toEqual([]);
    expect(existsSync('/tmp/absolute.txt')).toBe(false);
    expect(await readFile(join(w.folder, 'work/plain.txt'), 'utf8')).toBe('an ordinary file');
    expect(await w.readRemote('caf\u00e9.md')).toBe('the NFC one');
    // The synced café.md stays: its twin on the server is no reason to delete or overwrite it.
    expect(await readFile(join(w.folder, 'work/caf\u00e9.md'), 'utf8')).toBe('the NFC one');
    expect(o.proxy.seen.filter((s) => s.method === 'DELETE' || s.method === 'PUT')).toEqual([]);
  }, 90_000);
});
