import { describe, expect, it } from 'vitest';
import {
  conflictCopyName,
  isAlwaysIgnored,
  pathKey,
  sanitizeRemotePath,
} from '../../../../src/core/sync/sync-paths';

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

describe('always-ignored names', () => {
  it.each([
    '.git/config',
    'work/node_modules/x/index.js',
    '.DS_Store',
    'work/Thumbs.db',
    '.notes.md.swp',
    'a.txt~',
    '.agentdesk',
    'work/.agentdesk-tmp-123',
    'work/a.conflict-remote-20261121-071500.md',
  ])('ignores %s', (path) => expect(isAlwaysIgnored(path)).toBe(true));
  it.each(['instructions.md', 'work/.agentdesk', 'work/a.md', 'skills/x/SKILL.md'])('syncs %s', (path) =>
    expect(isAlwaysIgnored(path)).toBe(false),
  );
});

describe('conflict copy names', () => {
  const at = new Date(2026, 10, 21, 7, 15, 0);
  it('put the stamp before the extension', () => {
    expect(conflictCopyName('work/notes.md', at)).toBe('work/notes.conflict-remote-20261121-071500.md');
    expect(conflictCopyName('Makefile', at)).toBe('Makefile.conflict-remote-20261121-071500');
    expect(conflictCopyName('.env', at)).toBe('.env.conflict-remote-20261121-071500');
  });
  it('are themselves ignored', () => {
    expect(isAlwaysIgnored(conflictCopyName('work/notes.md', at))).toBe(true);
  });
  it('number a second copy of the same second, still ignored', () => {
    const second = conflictCopyName('work/notes.md', at, 2);
    expect(second).toBe('work/notes.conflict-remote-20261121-071500-2.md');
    expect(isAlwaysIgnored(second)).toBe(true);
    expect(isAlwaysIgnored('work/notes.conflict-remote-20261121-071500-x.md')).toBe(false);
  });
});
