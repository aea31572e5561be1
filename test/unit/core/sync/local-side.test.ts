import {
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  symlink,
  truncate,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clearStaleTempFiles,
  ShortWriteError,
  writeFileAtomic,
} from '../../../../src/core/sync/local/atomic-write';
import { hashBytes } from '../../../../src/core/sync/local/file-hash';
import { scanLocal } from '../../../../src/core/sync/local/local-scanner';
import { SyncStateStore } from '../../../../src/core/sync/state/sync-state-store';
import { pathKey } from '../../../../src/core/sync/plan/sync-paths';

let root: string;
let outside: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'agentdesk-sync-root-'));
  outside = await mkdtemp(join(tmpdir(), 'agentdesk-sync-outside-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function put(path: string, text: string) {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), text);
}

describe('local scanner (real disk)', () => {
  it('lists files with hashes and leaves out ignored names', async () => {
    await put('instructions.md', 'be kind');
    await put('work/a.txt', 'hello');
    await put('work/.git/HEAD', 'ref');
    await put('work/node_modules/x.js', '1');
    await put('.agentdesk', '{"agentId":"a1"}');
    await put('work/.notes.swp', 'swap');
    await put('work/skip-me.log', 'log');
    await put('.agentdeskignore', '*.log\n');
    const scan = await scanLocal(root, new Map());
    const paths = scan.entries.map((e) => e.path).sort();
    expect(paths).toEqual(['instructions.md', 'work/a.txt']);
    const a = scan.entries.find((e) => e.path === 'work/a.txt')!;
    expect(a.sha256).toBe(hashBytes(Buffer.from('hello')));
    expect(a.size).toBe(5);
  });

  it('reads an ignore file of comments as no rules, and keeps every line that is a rule', async () => {
    await put('work/#hash.txt', 'a');
    await put('work/ spaced.txt', 'b');
    await put('work/kept.txt', 'c');
    await put('.agentdeskignore', '# only a comment\n\n   \n');
    expect((await scanLocal(root, new Map())).entries.map((e) => e.path).sort()).toEqual([
      'work/ spaced.txt',
      'work/#hash.txt',
      'work/kept.txt',
    ]);
    // An escaped `#` and a name with a leading space are rules, not comments or blanks.
    await put('.agentdeskignore', '# a comment\n\\#hash.txt\n spaced.txt\n');
    expect((await scanLocal(root, new Map())).entries.map((e) => e.path)).toEqual(['work/kept.txt']);
  });

  it('does not hash a file whose size and mtime match the base', async () => {
    await put('work/a.txt', 'hello');
    const first = (await scanLocal(root, new Map())).entries[0]!;
    const base = new Map([
      [
        pathKey(first.path),
        { path: first.path, size: first.size, sha256: first.sha256!, mtimeMs: first.mtimeMs },
      ],
    ]);
    const second = (await scanLocal(root, base)).entries[0]!;
    expect(second.sha256).toBeUndefined();
    await utimes(join(root, 'work/a.txt'), new Date(), new Date(Date.now() + 5000));
    const third = (await scanLocal(root, base)).entries[0]!;
    expect(third.sha256).toBe(first.sha256);
  });

  it('reports symlinks (outside the root, and loops) as skipped and never follows them', async () => {
    await writeFile(join(outside, 'secret.txt'), 'outside');
    await mkdir(join(root, 'work'), { recursive: true });
    await symlink(join(outside, 'secret.txt'), join(root, 'work/link.txt'));
    await symlink(outside, join(root, 'work/linked-dir'));
    await symlink(join(root, 'work/loop'), join(root, 'work/loop'));
    const scan = await scanLocal(root, new Map());
    expect(scan.entries.map((e) => [e.path, e.skip]).sort()).toEqual([
      ['work/link.txt', 'symlink'],
      ['work/linked-dir', 'symlink'],
      ['work/loop', 'symlink'],
    ]);
  });

  it('marks files over the limit as too large without reading them', async () => {
    await put('work/big.bin', '');
    await truncate(join(root, 'work/big.bin'), 12 * 1024 * 1024);
    await put('skills/s/big-asset.bin', '');
    await truncate(join(root, 'skills/s/big-asset.bin'), 12 * 1024 * 1024);
    const scan = await scanLocal(root, new Map());
    expect(scan.entries.find((e) => e.path === 'work/big.bin')).toMatchObject({ skip: 'too-large' });
    expect(scan.entries.find((e) => e.path === 'skills/s/big-asset.bin')?.skip).toBeUndefined();
  });

  it('marks names the remote would refuse as invalid', async () => {
    await put('work/a\\b.txt', 'x');
    const scan = await scanLocal(root, new Map());
    expect(scan.entries).toMatchObject([{ path: 'work/a\\b.txt', skip: 'invalid-name' }]);
  });
});

describe('atomic local writes (real disk)', () => {
  it('writes through a temp file and leaves no temp behind', async () => {
    await writeFileAtomic(root, 'work/deep/new.txt', Buffer.from('fresh'), 5);
    expect(await readFile(join(root, 'work/deep/new.txt'), 'utf8')).toBe('fresh');
    expect(await readdir(join(root, 'work/deep'))).toEqual(['new.txt']);
  });

  it('refuses a short download and leaves the old file untouched', async () => {
    await put('work/a.txt', 'old contents');
    await expect(writeFileAtomic(root, 'work/a.txt', Buffer.from('new'), 10)).rejects.toBeInstanceOf(
      ShortWriteError,
    );
    expect(await readFile(join(root, 'work/a.txt'), 'utf8')).toBe('old contents');
    expect(await readdir(join(root, 'work'))).toEqual(['a.txt']);
  });

  it('refuses paths outside the root and writes through symlinked folders', async () => {
    await expect(writeFileAtomic(root, '../escape.txt', Buffer.from('x'))).rejects.toThrow(/outside/);
    await mkdir(join(root, 'work'));
    await symlink(outside, join(root, 'work/link'));
    await expect(writeFileAtomic(root, 'work/link/x.txt', Buffer.from('x'))).rejects.toThrow(/symlinked/);
    expect(await readdir(outside)).toEqual([]);
  });

  it('clears temp files a crash left behind', async () => {
    await put('work/.agentdesk-tmp-abc', 'partial');
    await put('work/keep.txt', 'keep');
    expect(await clearStaleTempFiles(root)).toBe(1);
    expect(await readdir(join(root, 'work'))).toEqual(['keep.txt']);
  });
});

describe('sync state store (real SQLite file)', () => {
  it('keeps bases, conflicts and settings across reopening', async () => {
    const file = join(outside, 'state', 'agent.db');
    const first = new SyncStateStore(file);
    first.commitBase('work/a.txt', 'work/a.txt', { size: 5, sha256: 'abc' }, 123);
    first.commitBase('readme.md', 'README.md', { size: 1, sha256: 'def' });
    first.forgetBase('readme.md');
    first.flagConflict({ key: 'x', path: 'x', remoteCopyPath: 'x.conflict-remote-20261121-000000', at: 1 });
    first.setSetting('paused', 'true');
    first.close();
    const second = new SyncStateStore(file);
    expect([...second.baseEntries()]).toEqual([
      ['work/a.txt', { path: 'work/a.txt', size: 5, sha256: 'abc', mtimeMs: 123 }],
    ]);
    expect(second.conflicts()).toEqual([
      { key: 'x', path: 'x', remoteCopyPath: 'x.conflict-remote-20261121-000000', at: 1 },
    ]);
    expect(second.setting('paused')).toBe('true');
    second.close();
  });
});
