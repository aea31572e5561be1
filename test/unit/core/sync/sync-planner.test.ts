import { describe, expect, it } from 'vitest';
import {
  planSync,
  type BaseEntry,
  type LocalEntry,
  type PlanInput,
  type RemoteEntry,
} from '../../../../src/core/sync/plan/sync-planner';
import { pathKey } from '../../../../src/core/sync/plan/sync-paths';

const A = { size: 1, sha256: 'aaa' };
const B = { size: 2, sha256: 'bbb' };
const C = { size: 3, sha256: 'ccc' };

const base = (...entries: (BaseEntry & { path: string })[]) =>
  new Map(entries.map((entry) => [pathKey(entry.path), entry]));
const b = (path: string, fp = A): BaseEntry => ({ path, ...fp, mtimeMs: 100 });
/** A local file whose mtime moved since base, so the scanner hashed it. */
const l = (path: string, fp = A): LocalEntry => ({ path, ...fp, mtimeMs: 200 });
/** A local file untouched since base: same mtime, not hashed again. */
const lSame = (path: string, fp = A): LocalEntry => ({ path, size: fp.size, mtimeMs: 100 });
const r = (path: string, fp = A): RemoteEntry => ({ path, ...fp });

function plan(input: Partial<PlanInput>) {
  return planSync({ base: new Map(), local: [], remote: [], ...input });
}
const types = (input: Partial<PlanInput>) =>
  plan(input).actions.map((a) => `${a.type} ${'path' in a ? a.path : a.key}`);

describe('sync planner: one side changed', () => {
  it('downloads everything on a first sync into an empty folder', () => {
    expect(types({ remote: [r('a.md'), r('work/b.txt', B)] })).toEqual([
      'download a.md',
      'download work/b.txt',
    ]);
  });
  it('uploads a new local file once', () => {
    expect(types({ base: base(b('x')), local: [lSame('x'), l('new.txt', B)], remote: [r('x')] })).toEqual([
      'upload new.txt',
    ]);
  });
  it('downloads a new remote file once', () => {
    expect(types({ base: base(b('x')), local: [lSame('x')], remote: [r('x'), r('new.txt', B)] })).toEqual([
      'download new.txt',
    ]);
  });
  it('uploads a local modification', () => {
    expect(types({ base: base(b('x')), local: [l('x', B)], remote: [r('x')] })).toEqual(['upload x']);
  });
  it('downloads a remote modification', () => {
    expect(types({ base: base(b('x')), local: [lSame('x')], remote: [r('x', B)] })).toEqual(['download x']);
  });
  it('treats a touched but identical local file as unchanged', () => {
    expect(types({ base: base(b('x')), local: [l('x', A)], remote: [r('x')] })).toEqual([]);
  });
  it('deletes remotely what was deleted locally', () => {
    expect(types({ base: base(b('x'), b('y')), local: [lSame('y')], remote: [r('x'), r('y')] })).toEqual([
      'delete-remote x',
    ]);
  });
  it('deletes locally (to the trash) what was deleted remotely', () => {
    expect(types({ base: base(b('x'), b('y')), local: [lSame('x'), lSame('y')], remote: [r('y')] })).toEqual([
      'delete-local x',
    ]);
  });
  it('forgets a path deleted on both sides', () => {
    expect(types({ base: base(b('x'), b('y')), local: [lSame('y')], remote: [r('y')] })).toEqual([
      'forget-base x',
    ]);
  });
  it('does nothing when nothing changed', () => {
    expect(types({ base: base(b('x')), local: [lSame('x')], remote: [r('x')] })).toEqual([]);
  });
});

describe('sync planner: both sides changed', () => {
  it('records the base when both changed to identical content', () => {
    const result = plan({ base: base(b('x')), local: [l('x', B)], remote: [r('x', B)] });
    expect(result.actions).toEqual([
      { type: 'record-base', key: 'x', path: 'x', entry: B, mtimeMs: 200, remote: B },
    ]);
  });
  it("takes the server's own form of a file as its base: neither a change nor a conflict", () => {
    // mcp.json: the local bytes are A, the server keeps them pretty-printed as C.
    const synced = { ...b('mcp.json'), remote: C };
    expect(types({ base: base(synced), local: [lSame('mcp.json')], remote: [r('mcp.json', C)] })).toEqual([]);
    // A second local edit is a plain upload, with the remote version it replaces named.
    const second = plan({ base: base(synced), local: [l('mcp.json', B)], remote: [r('mcp.json', C)] });
    expect(second.actions).toMatchObject([{ type: 'upload', path: 'mcp.json', remote: { sha256: 'ccc' } }]);
    // The agent's own later edit is still seen as a change.
    expect(types({ base: base(synced), local: [lSame('mcp.json')], remote: [r('mcp.json', B)] })).toEqual([
      'download mcp.json',
    ]);
  });
  it('flags a conflict when both changed differently', () => {
    expect(types({ base: base(b('x')), local: [l('x', B)], remote: [r('x', C)] })).toEqual(['conflict x']);
  });
  it('compares by content when the remote listing has no hash', () => {
    expect(types({ base: base(b('x')), local: [l('x', B)], remote: [{ path: 'x', size: 3 }] })).toEqual([
      'compare x',
    ]);
  });
  it('compares a path new on both sides on a first sync', () => {
    expect(types({ local: [l('x', B)], remote: [{ path: 'x', size: 3 }] })).toEqual(['compare x']);
  });
  it('lets a local modification win over a remote delete', () => {
    expect(types({ base: base(b('x'), b('y')), local: [l('x', B), lSame('y')], remote: [r('y')] })).toEqual([
      'upload x',
    ]);
  });
  it('lets a remote modification win over a local delete', () => {
    expect(types({ base: base(b('x'), b('y')), local: [lSame('y')], remote: [r('x', B), r('y')] })).toEqual([
      'download x',
    ]);
  });
  it('leaves flagged conflicts alone until the person resolves them', () => {
    expect(
      types({ base: base(b('x')), local: [l('x', B)], remote: [r('x')], conflicts: new Set(['x']) }),
    ).toEqual([]);
  });
});

describe('sync planner: names', () => {
  it('turns a local case-only rename into an upload that replaces the old remote name', () => {
    const result = plan({
      base: base(b('Readme.md')),
      local: [lSame('README.md')],
      remote: [r('Readme.md')],
    });
    expect(result.actions).toEqual([
      {
        type: 'upload',
        key: 'readme.md',
        path: 'README.md',
        local: lSame('README.md'),
        replacesRemote: r('Readme.md'),
      },
    ]);
  });
  it('turns a remote case-only rename into a download that replaces the old local name', () => {
    const result = plan({
      base: base(b('Readme.md')),
      local: [lSame('Readme.md')],
      remote: [r('README.md')],
    });
    expect(result.actions).toMatchObject([
      { type: 'download', path: 'README.md', replacesLocalPath: 'Readme.md' },
    ]);
  });
  it('keys NFD and NFC spellings as one path', () => {
    const nfd = 'cafe\u0301.md';
    const nfc = 'caf\u00e9.md';
    expect(types({ base: base(b(nfc)), local: [lSame(nfd)], remote: [r(nfc)] })).toEqual([]);
  });
  it('downloads onto the NFD name on disk, in place (no NFC twin)', () => {
    const nfd = 'cafe\u0301.md';
    const nfc = 'caf\u00e9.md';
    const result = plan({ base: base(b(nfc)), local: [lSame(nfd)], remote: [r(nfc, B)] });
    expect(result.actions).toMatchObject([{ type: 'download', path: nfd, remote: { path: nfc } }]);
    expect(result.actions[0]).not.toHaveProperty('replacesLocalPath', nfd);
  });
  it('skips two local paths that differ only by case', () => {
    const result = plan({ local: [l('a.md'), l('A.md', B)], remote: [r('keep')] });
    expect(result.actions.map((a) => a.type)).toEqual(['download']);
    expect(result.skipped).toEqual([
      { path: 'A.md', reason: 'name-clash' },
      { path: 'a.md', reason: 'name-clash' },
    ]);
  });
  it('replaces a file by a folder: delete the old file, upload the folder contents', () => {
    expect(
      types({ base: base(b('a'), b('k')), local: [l('a/x', B), lSame('k')], remote: [r('a'), r('k')] }),
    ).toEqual(['delete-remote a', 'upload a/x']);
  });
  it('keeps both when a remote file lands where a local folder now stands', () => {
    expect(
      types({ base: base(b('k')), local: [l('a/x', B), lSame('k')], remote: [r('a', C), r('k')] }),
    ).toEqual(['conflict a', 'upload a/x']);
  });
});

describe('sync planner: guards', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => `f${String(i).padStart(3, '0')}`);

  it('aborts when the remote listing is empty but the base is not', () => {
    const result = plan({ base: base(b('x')), local: [lSame('x')], remote: [] });
    expect(result.abort).toMatch(/empty/);
    expect(result.actions).toEqual([]);
  });
  it('aborts when one separately listed group comes back empty but was synced before', () => {
    const result = plan({
      base: base(b('instructions.md'), b('work/a.txt')),
      local: [lSame('instructions.md'), lSame('work/a.txt')],
      remote: [r('instructions.md')],
      listedGroups: ['', 'work/'],
    });
    expect(result.abort).toMatch(/work\//);
    expect(result.actions).toEqual([]);
  });
  it('once the files of an empty group are gone locally too, only their bases are forgotten', () => {
    const result = plan({
      base: base(b('instructions.md'), b('work/a.txt')),
      local: [lSame('instructions.md'), l('work/new.txt', B)],
      remote: [r('instructions.md')],
      listedGroups: ['', 'work/'],
    });
    expect(result.abort).toBeUndefined();
    // The new file waits for a listing that is not suspect.
    expect(result.actions.map((a) => `${a.type} ${'path' in a ? a.path : a.key}`)).toEqual([
      'forget-base work/a.txt',
    ]);
  });
  it('pauses when more than half of the files would be deleted remotely', () => {
    const names = many(10);
    const result = plan({
      base: base(...names.map((n) => b(n))),
      local: names.slice(6).map((n) => lSame(n)),
      remote: names.map((n) => r(n)),
    });
    expect(result.pause).toEqual({ side: 'remote', deletes: 6, total: 10 });
  });
  it('pauses when more than 20 files would be deleted locally', () => {
    const names = many(100);
    const result = plan({
      base: base(...names.map((n) => b(n))),
      local: names.map((n) => lSame(n)),
      remote: names.slice(21).map((n) => r(n)),
    });
    expect(result.pause).toEqual({ side: 'local', deletes: 21, total: 100 });
  });
  it('holds only the deletes while paused: every other change still runs', () => {
    const names = many(10);
    const result = plan({
      base: base(...names.map((n) => b(n))),
      local: [...names.slice(6).map((n) => lSame(n)), l('work/new.txt', B)],
      remote: [...names.map((n) => r(n)), r('work/theirs.txt', C)],
    });
    expect(result.pause).toEqual({ side: 'remote', deletes: 6, total: 11 });
    expect(result.actions.map((a) => `${a.type} ${a.key}`).sort()).toEqual([
      'download work/theirs.txt',
      'upload work/new.txt',
    ]);
    expect(result.held?.map((a) => a.type)).toEqual(Array(6).fill('delete-remote'));
  });
  it('does not pause a small ordinary delete', () => {
    const result = plan({ base: base(b('x'), b('y')), local: [lSame('y')], remote: [r('x'), r('y')] });
    expect(result.pause).toBeUndefined();
  });
  it('runs a confirmed mass delete', () => {
    const names = many(30);
    const result = plan({
      base: base(...names.map((n) => b(n))),
      local: [lSame(names[0]!)],
      remote: names.map((n) => r(n)),
      confirmedDeletes: true,
    });
    expect(result.pause).toBeUndefined();
    expect(result.actions.filter((a) => a.type === 'delete-remote')).toHaveLength(29);
  });
  it('never uploads nor deletes a file the scanner skipped', () => {
    const result = plan({
      base: base(b('big.bin'), b('k')),
      local: [{ path: 'big.bin', size: 12e6, mtimeMs: 1, skip: 'too-large' }, lSame('k')],
      remote: [r('big.bin'), r('k')],
    });
    expect(result.actions).toEqual([]);
    expect(result.skipped).toEqual([{ path: 'big.bin', reason: 'too-large' }]);
  });
  it('runs upload-only where remote bytes cannot be read', () => {
    const result = plan({
      base: base(b('k')),
      local: [lSame('k'), l('work/mine.txt')],
      remote: [r('k'), r('work/theirs.txt')],
      canDownload: (path) => !path.startsWith('work/'),
    });
    expect(result.actions.map((a) => `${a.type} ${a.key}`)).toEqual(['upload work/mine.txt']);
    expect(result.skipped).toEqual([{ path: 'work/theirs.txt', reason: 'upload-only' }]);
  });
});
