/**
 * checked-replace.ts on real disk: an editor's save at any moment of a download's replace is
 * never lost. The "editor" writes from inside the engine's own steps, the narrowest windows there are.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceChecked } from '../../../../src/core/sync/checked-replace';

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

const keep = async (absolute: string) => {
  kept.push(await readFile(absolute, 'utf8'));
};
const read = (name: string) => readFile(join(root, name), 'utf8');

describe('replacing a file only if it is still the planned version', () => {
  it('replaces the base version, keeping it first', async () => {
    const outcome = await replaceChecked({
      root,
      path: 'a.txt',
      bytes: Buffer.from('download'),
      expect: async (current) => current !== undefined && (await readFile(current, 'utf8')) === 'base',
      keep,
    });
    expect(outcome.replaced).toBe(true);
    expect(await read('a.txt')).toBe('download');
    expect(kept).toEqual(['base']);
    expect(await readdir(root)).toEqual(['a.txt']);
  });

  it('puts a changed file back and does not replace it', async () => {
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

  it('a save landing after the check (the file is aside) stays, and the base version is kept', async () => {
    const outcome = await replaceChecked({
      root,
      path: 'a.txt',
      bytes: Buffer.from('download'),
      expect: async () => {
        await writeFile(join(root, 'a.txt'), 'saved during the replace');
        return true;
      },
      keep,
    });
    expect(outcome.replaced).toBe(false);
    expect(await read('a.txt')).toBe('saved during the replace');
    expect(kept).toEqual(['base']);
    expect(await readdir(root)).toEqual(['a.txt']);
  });

  it('a changed file whose path was saved again meanwhile goes to the history, the newest stays', async () => {
    await writeFile(join(root, 'a.txt'), 'first edit');
    const outcome = await replaceChecked({
      root,
      path: 'a.txt',
      bytes: Buffer.from('download'),
      expect: async () => {
        await writeFile(join(root, 'a.txt'), 'second edit');
        return false;
      },
      keep,
    });
    expect(outcome.replaced).toBe(false);
    expect(await read('a.txt')).toBe('second edit');
    expect(kept).toEqual(['first edit']);
  });
});
