/**
 * checked-replace.ts on real disk: an editor's save at any moment of a download's replace is
 * never lost, and the file stands at its path while it is checked and kept. The "editor" writes
 * from inside the engine's own steps, the narrowest windows there are.
 */
import { mkdtemp, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceChecked } from '../../../../src/core/sync/local/checked-replace';

let root: string;
let kept: string[];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'agentdesk-replace-'));
  kept = [];
  await writeFile(join(root, 'a.txt'), 'base');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Like the version history: a version already the newest kept is not kept twice. */
const keep = async (absolute: string) => {
  const text = await readFile(absolute, 'utf8');
  if (kept.at(-1) !== text) kept.push(text);
};
const read = (name: string) => readFile(join(root, name), 'utf8');
/** An editor's atomic save: a temp file renamed over the path. */
const atomicSave = async (text: string) => {
  await writeFile(join(root, '.a.txt.swp'), text);
  await rename(join(root, '.a.txt.swp'), join(root, 'a.txt'));
};

describe('replacing a file only if it is still the planned version', () => {
  it('replaces the base version, keeping it first, with the file at its path while checked and kept', async () => {
    const seenAtPath: string[] = [];
    const outcome = await replaceChecked({
      root,
      path: 'a.txt',
      bytes: Buffer.from('download'),
      expect: async (current) => {
        seenAtPath.push(await read('a.txt'));
        return current !== undefined && (await readFile(current, 'utf8')) === 'base';
      },
      keep: async (absolute) => {
        if (absolute === join(root, 'a.txt')) seenAtPath.push(await read('a.txt')); // kept in place
        await keep(absolute);
      },
    });
    expect(outcome.replaced).toBe(true);
    expect(seenAtPath).toEqual(['base', 'base']);
    expect(await read('a.txt')).toBe('download');
    expect(kept).toEqual(['base']);
    expect(await readdir(root)).toEqual(['a.txt']);
  });

  it('leaves a changed file in place and does not replace it', async () => {
    await writeFile(join(root, 'a.txt'), 'my edit');
    const outcome = await replaceChecked({
      root,
      path: 'a.txt',
      bytes: Buffer.from('download'),
      expect: async (current) => (await readFile(current!, 'utf8')) === 'base',
      keep,
    });
    expect(outcome.replaced).toBe(false);
    expect(await read('a.txt')).toBe('my edit');
    expect(await readdir(root)).toEqual(['a.txt']);
  });

  it('a save written in place during the check stays, and the path is re-planned', async () => {
    const outcome = await replaceChecked({
      root,
      path: 'a.txt',
      bytes: Buffer.from('download'),
      expect: async () => {
        await writeFile(join(root, 'a.txt'), 'saved during the check');
        return true;
      },
      keep,
    });
    expect(outcome.replaced).toBe(false);
    expect(await read('a.txt')).toBe('saved during the check');
    expect(await readdir(root)).toEqual(['a.txt']);
  });

  it('an atomic save landing while the checked version is kept stays, and the checked one is in the history', async () => {
    const outcome = await replaceChecked({
      root,
      path: 'a.txt',
      bytes: Buffer.from('download'),
      expect: async () => true,
      keep: async (absolute) => {
        await keep(absolute);
        await atomicSave('saved while kept');
      },
    });
    expect(outcome.replaced).toBe(false);
    expect(await read('a.txt')).toBe('saved while kept');
    expect(kept).toEqual(['base']);
    expect(await readdir(root)).toEqual(['a.txt']);
  });

  it('a same-size write that leaves the mtime as it was (a coarse clock) is still kept', async () => {
    const tick = new Date('2026-01-01T00:00:00Z');
    await utimes(join(root, 'a.txt'), tick, tick);
    const outcome = await replaceChecked({
      root,
      path: 'a.txt',
      bytes: Buffer.from('download'),
      expect: async () => true,
      keep: async (absolute) => {
        await keep(absolute);
        if (absolute !== join(root, 'a.txt')) return;
        // Written in place right after it was kept, in the same clock tick: no stat tells.
        await writeFile(absolute, 'BASE');
        await utimes(absolute, tick, tick);
      },
    });
    expect(outcome.replaced).toBe(true);
    expect(await read('a.txt')).toBe('download');
    expect(kept).toEqual(['base', 'BASE']);
  });

  it('a file that appears where nothing stood during the check stays', async () => {
    await rm(join(root, 'a.txt'));
    const outcome = await replaceChecked({
      root,
      path: 'a.txt',
      bytes: Buffer.from('download'),
      expect: async (current) => {
        await writeFile(join(root, 'a.txt'), 'new here');
        return current === undefined;
      },
      keep,
    });
    expect(outcome.replaced).toBe(false);
    expect(await read('a.txt')).toBe('new here');
    expect(kept).toEqual([]);
  });

  it('a delete keeps the checked version and hands it to the trash under its own name', async () => {
    const trashed: string[] = [];
    const outcome = await replaceChecked({
      root,
      path: 'a.txt',
      bytes: null,
      expect: async (current) => (await readFile(current!, 'utf8')) === 'base',
      keep,
      dispose: async (aside) => {
        trashed.push(`${aside.endsWith('/a.txt')}:${await readFile(aside, 'utf8')}`);
      },
    });
    expect(outcome.replaced).toBe(true);
    expect(kept).toEqual(['base']);
    expect(trashed).toEqual(['true:base']);
    expect(await readdir(root)).toEqual([]);
  });
});
