/**
 * The folder-tree watch on real disk: one watch per folder and none per file, new folders (nested
 * ones included) watched as they appear, a removed folder's watches released and taken again when
 * it comes back, skipped folders never watched, symlinked folders never followed.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchFolders, type FolderWatch } from '../../../../src/core/sync/local/folder-watch';

let root: string;
let watch: FolderWatch | undefined;
let events: string[];
let errors: Error[];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'agentdesk-folder-watch-'));
  events = [];
  errors = [];
});
afterEach(async () => {
  watch?.close();
  await rm(root, { recursive: true, force: true });
});

async function start(): Promise<FolderWatch> {
  watch = watchFolders({
    root,
    skip: (rel) => rel.split('/').includes('.git'),
    onEvent: (rel) => events.push(rel),
    onError: (error) => errors.push(error),
  });
  await watch.ready;
  return watch;
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`never: ${what} (events: ${events.join(', ')})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('watchFolders', () => {
  it('holds one watch per folder, none per file, and reports a file change by its path', async () => {
    for (const dir of ['a', 'b', 'b/c']) {
      await mkdir(join(root, dir), { recursive: true });
      for (let i = 0; i < 50; i += 1) await writeFile(join(root, dir, `f${i}.txt`), 'x');
    }
    const folders = await start();
    expect(folders.size).toBe(4); // the root, a, b, b/c
    await writeFile(join(root, 'b/c/f7.txt'), 'changed');
    await until(() => events.includes('b/c/f7.txt'), 'the edit is reported');
    expect(errors).toEqual([]);
  });

  it('watches a new nested folder as it appears, and again after it was removed and made anew', async () => {
    const folders = await start();
    await mkdir(join(root, 'new/deep'), { recursive: true });
    await until(() => folders.size === 3, 'new and new/deep are watched');
    await writeFile(join(root, 'new/deep/x.txt'), 'first');
    await until(() => events.includes('new/deep/x.txt'), 'a file in the new folder is reported');

    await rm(join(root, 'new'), { recursive: true });
    await until(() => folders.size === 1, 'the removed folders are no longer watched');
    await mkdir(join(root, 'new/deep'), { recursive: true });
    await until(() => folders.size === 3, 'the folders made anew are watched');
    events.length = 0;
    await writeFile(join(root, 'new/deep/y.txt'), 'second');
    await until(() => events.includes('new/deep/y.txt'), 'a file in the folder made anew is reported');
    expect(errors).toEqual([]);
  });

  it('never watches a skipped folder nor follows a symlinked one', async () => {
    await mkdir(join(root, '.git/objects'), { recursive: true });
    await mkdir(join(root, 'real'));
    await symlink(join(root, 'real'), join(root, 'link'));
    await symlink(root, join(root, 'real/loop'));
    const folders = await start();
    expect(folders.size).toBe(2); // the root and real
    await writeFile(join(root, '.git/objects/blob'), 'x');
    await writeFile(join(root, 'real/seen.txt'), 'x');
    await until(() => events.includes('real/seen.txt'), 'the real folder reports');
    expect(events.filter((e) => e.startsWith('.git/'))).toEqual([]);
  });
});
