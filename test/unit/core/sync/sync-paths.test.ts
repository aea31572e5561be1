import { describe, expect, it } from 'vitest';
import {
  conflictCopyName,
  isAlwaysIgnored,
  looksLikeConflictCopy,
  pathKey,
  sanitizeRemotePath,
} from '../../../../src/core/sync/plan/sync-paths';

describe('remote path sanitising', () => {
  it.each([
    ['../../x', 'parent directory segment'],
    ['/etc/x', 'absolute path'],
    ['a\\..\\b', 'backslash in name'],
    ['C:x', 'drive letter'],
    ['a\u0000b', 'control character in name'],
    ['work/CON', 'reserved name "CON"'],
    ['work/nul.txt', 'reserved name "nul.txt"'],
    ['a//b', 'empty path segment'],
    ['./a', 'empty path segment'],
    ['', 'empty path'],
    ['a/b?.txt', 'character not allowed on Windows'],
  ])('refuses %j', (raw, reason) => {
    expect(sanitizeRemotePath(raw)).toEqual({ ok: false, reason });
  });

  it('accepts ordinary relative paths and returns them in NFC', () => {
    expect(sanitizeRemotePath('work/notes/cafe\u0301.md')).toEqual({
      ok: true,
      path: 'work/notes/caf\u00e9.md',
    });
    expect(sanitizeRemotePath('skills/my-skill/SKILL.md')).toEqual({
      ok: true,
      path: 'skills/my-skill/SKILL.md',
    });
  });
});

describe('path keys', () => {
  it('fold case and Unicode form', () => {
    expect(pathKey('README.md')).toBe(pathKey('Readme.md'));
    expect(pathKey('cafe\u0301')).toBe(pathKey('caf\u00e9'));
  });
});

describe('always-ignored names (never synced, on either side)', () => {
  it.each([
    '.git/config',
    'work/.git/HEAD',
    'work/.hg/store',
    'work/.svn/entries',
    'work/node_modules/x/index.js',
    'work/.venv/bin/python',
    'work/__pycache__/a.pyc',
    '.DS_Store',
    'work/Thumbs.db',
    '.notes.md.swp',
    'work/4913',
    'a.txt~',
    'work/notes.md~',
    'work/.#notes.md',
    'work/#notes.md#',
    'work/.~lock.report.odt#',
    'work/~$report.docx',
    'work/~WRL0001.tmp',
    'work/report.md.tmp',
    'work/notes.md___jb_tmp___',
    'work/notes.md___jb_old___',
    'work/.notes.md.Xa81Zq',
    '.agentdesk',
    'work/.agentdesk-tmp-123',
  ])('ignores %s', (path) => expect(isAlwaysIgnored(path)).toBe(true));
  it.each([
    'instructions.md',
    'work/.agentdesk',
    'work/a.md',
    'skills/x/SKILL.md',
    'work/.env.backup',
    'work/.eslintrc.config',
    'work/a.conflict-remote-20261121-071500.md',
  ])('syncs %s', (path) => expect(isAlwaysIgnored(path)).toBe(false));
});

describe('conflict copy names', () => {
  const at = new Date(2026, 10, 21, 7, 15, 0);
  it('put the stamp before the extension', () => {
    expect(conflictCopyName('work/notes.md', at)).toBe('work/notes.conflict-remote-20261121-071500.md');
    expect(conflictCopyName('Makefile', at)).toBe('Makefile.conflict-remote-20261121-071500');
    expect(conflictCopyName('.env', at)).toBe('.env.conflict-remote-20261121-071500');
  });
  it('look like copies (the engine records its own; a look-alike is only reported)', () => {
    expect(looksLikeConflictCopy(conflictCopyName('work/notes.md', at))).toBe(true);
    expect(looksLikeConflictCopy('work/notes.md')).toBe(false);
  });
  it('number a second copy of the same second', () => {
    const second = conflictCopyName('work/notes.md', at, 2);
    expect(second).toBe('work/notes.conflict-remote-20261121-071500-2.md');
    expect(looksLikeConflictCopy(second)).toBe(true);
    expect(looksLikeConflictCopy('work/notes.conflict-remote-20261121-071500-x.md')).toBe(false);
  });
  it('fit the file system name limit of 255 bytes, keeping the extension', () => {
    const long = `work/${'ü'.repeat(127)}.md`; // 254 bytes + .md
    const copy = conflictCopyName(long, at);
    const name = copy.slice('work/'.length);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(name.endsWith('.conflict-remote-20261121-071500.md')).toBe(true);
    expect(copy.startsWith('work/üü')).toBe(true);
  });
});
