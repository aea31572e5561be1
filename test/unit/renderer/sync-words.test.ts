import { describe, expect, it } from 'vitest';
import {
  historyUseWords,
  notStartedHint,
  parseHistoryCap,
  sizeWords,
  isPausedByPerson,
  lastSyncWords,
  pendingDeleteWords,
  problemLines,
  progressOf,
  skipReasonWords,
  skipWords,
  stateWords,
  summaryWords,
  unreachableWords,
} from '../../../src/renderer/features/sync/sync-words';
import type { SyncFolderStatus, SyncStatus } from '../../../src/shared/bridge';

const status = (change: Partial<SyncStatus> = {}): SyncStatus => ({
  state: 'idle',
  root: '/home/ana/AgentDesk/Helper',
  done: 0,
  total: 0,
  conflicts: [],
  skipped: [],
  failures: [],
  ...change,
});
const folder = (change: Partial<SyncStatus> = {}): SyncFolderStatus => ({
  agentId: 'a1',
  root: '/home/ana/AgentDesk/Helper',
  agentName: 'Helper',
  status: status(change),
});
const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('sync words', () => {
  it('names every state plainly, with N of M while syncing', () => {
    expect(stateWords(status({ lastSyncAt: NOW }))).toBe('Up to date');
    expect(stateWords(status())).toBe('Waiting for the first sync');
    const conflict = { key: 'k', path: 'work/a.md', remoteCopyPath: 'work/a.conflict-remote.md', at: NOW };
    expect(stateWords(status({ lastSyncAt: NOW, conflicts: [conflict] }))).toBe(
      'Up to date except 1 conflict',
    );
    expect(stateWords(status({ state: 'scanning' }))).toBe('Looking for changes…');
    expect(stateWords(status({ state: 'syncing', done: 3, total: 12 }))).toBe('Syncing 3 of 12');
    expect(stateWords(status({ state: 'syncing', done: 0, total: 0 }))).toBe('Syncing…');
    expect(stateWords(status({ state: 'paused' }))).toBe('Paused');
    expect(
      stateWords(status({ state: 'paused', pendingDeletes: { side: 'remote', deletes: 30, total: 40 } })),
    ).toBe('Waiting for you to confirm deletions');
    expect(stateWords(status({ state: 'error' }))).toBe('Sync stopped on a problem');
    expect(stateWords(status({ state: 'stopped' }))).toBe('Stopped');
  });

  it('fills the progress bar while files move and leaves it running while looking', () => {
    expect(progressOf(status({ state: 'syncing', done: 3, total: 12 }))).toEqual({ value: 3, max: 12 });
    expect(progressOf(status({ state: 'syncing', done: 14, total: 12 }))).toEqual({ value: 12, max: 12 });
    expect(progressOf(status({ state: 'syncing', total: 0 }))).toBe('indeterminate');
    expect(progressOf(status({ state: 'scanning' }))).toBe('indeterminate');
    expect(progressOf(status({ state: 'idle' }))).toBeNull();
    expect(progressOf(status({ state: 'paused' }))).toBeNull();
  });

  it("tells the person's pause from a mass deletion waiting for confirmation", () => {
    expect(isPausedByPerson(status({ state: 'paused' }))).toBe(true);
    expect(
      isPausedByPerson(
        status({ state: 'paused', pendingDeletes: { side: 'local', deletes: 25, total: 30 } }),
      ),
    ).toBe(false);
    expect(isPausedByPerson(status({ state: 'idle' }))).toBe(false);
  });

  it('gives every skip reason in plain words', () => {
    for (const reason of ['too-large', 'symlink', 'invalid-name', 'upload-only', 'name-clash'] as const) {
      expect(skipWords(reason)).toBe(skipReasonWords[reason]);
    }
    expect(skipWords('too-large')).toContain('10 MB');
    expect(skipWords('upload-only')).toContain('only uploads');
    expect(skipWords('something-new')).toBe('Left out of sync');
  });

  it('says when the last sync was, relative to now', () => {
    expect(lastSyncWords(undefined, NOW)).toBe('Not synced yet');
    expect(lastSyncWords(NOW - 10_000, NOW)).toBe('Last synced just now');
    expect(lastSyncWords(NOW - 5 * 60_000, NOW)).toBe('Last synced 5 min ago');
  });

  it('explains a pending mass deletion and which side loses files', () => {
    expect(pendingDeleteWords({ side: 'remote', deletes: 30, total: 40 })).toBe(
      "This sync would delete 30 of 40 files from the agent's files. Nothing is deleted until you confirm.",
    );
    expect(pendingDeleteWords({ side: 'local', deletes: 1, total: 2 })).toContain(
      '1 of 2 files from this folder',
    );
    // A folder deleted file by file: the first ones already went, and the words say so.
    expect(pendingDeleteWords({ side: 'remote', deletes: 2, total: 21, recent: 20 })).toBe(
      "This sync would delete 2 of 21 files from the agent's files, after 20 deleted one after another in the last minute. Nothing more is deleted until you confirm.",
    );
  });

  it('lists problems one per line only in error', () => {
    expect(
      problemLines(status({ state: 'error', message: 'work/a.txt: too slow\nwork/b.txt: refused' })),
    ).toEqual(['work/a.txt: too slow', 'work/b.txt: refused']);
    expect(problemLines(status({ state: 'error' }))).toEqual(['Sync could not finish. It will try again.']);
    expect(problemLines(status({ state: 'paused', message: 'Sync is paused.' }))).toEqual([]);
  });

  it('sums a folder up for the sidebar, conflicts and confirmations first', () => {
    expect(summaryWords(undefined)).toBe('');
    expect(summaryWords(null)).toBe('Not set up');
    expect(summaryWords(folder({ lastSyncAt: NOW }))).toBe('Up to date');
    expect(summaryWords(folder({ state: 'syncing', done: 1, total: 4 }))).toBe('Syncing 1 of 4');
    const conflict = { key: 'k', path: 'work/a.md', remoteCopyPath: 'work/a.conflict-remote.md', at: NOW };
    expect(summaryWords(folder({ conflicts: [conflict] }))).toBe('1 conflict to resolve');
    expect(summaryWords(folder({ conflicts: [conflict, { ...conflict, key: 'j' }] }))).toBe(
      '2 conflicts to resolve',
    );
    expect(
      summaryWords(folder({ state: 'paused', pendingDeletes: { side: 'remote', deletes: 30, total: 40 } })),
    ).toBe('Needs your confirmation');
  });

  it('never says "Up to date" while the app knows the server cannot be reached', () => {
    expect(summaryWords(folder({ lastSyncAt: NOW }), false)).toBe("Can't reach the agent's server");
    expect(summaryWords(folder({ lastSyncAt: NOW, state: 'paused' }), false)).toBe('Paused');
    expect(summaryWords(folder({ lastSyncAt: NOW }), true)).toBe('Up to date');
  });

  it('says plainly that another process holds the folder, or that it could not start, and what to do', () => {
    const held = status({ state: 'error', notStarted: { reason: 'held', nextTryAt: NOW } });
    expect(stateWords(held)).toBe('Synced by another AgentDesk process');
    expect(notStartedHint(held.notStarted!)).toContain('Ctrl-C in its terminal');
    const failed = status({ state: 'error', notStarted: { reason: 'failed', nextTryAt: NOW } });
    expect(stateWords(failed)).toBe('Sync could not start');
    expect(notStartedHint(failed.notStarted!)).toContain('choose Try again');
    expect(stateWords(status({ state: 'error' }))).toBe('Sync stopped on a problem');
  });

  it('gives sizes in plain units and the history use as one line', () => {
    expect(sizeWords(340)).toBe('340 B');
    expect(sizeWords(1536)).toBe('1.5 kB');
    expect(sizeWords(1.25 * 1024 * 1024)).toBe('1.3 MB');
    expect(sizeWords(12.4 * 1024 * 1024)).toBe('12 MB');
    expect(sizeWords(1024 * 1024 * 1024)).toBe('1 GB');
    expect(sizeWords(1.5 * 1024 * 1024 * 1024)).toBe('1.5 GB');
    expect(historyUseWords({ usedBytes: 12 * 1024 * 1024, capBytes: 500 * 1024 * 1024 })).toBe(
      'Using 12 MB of 500 MB',
    );
  });

  it('reads a history cap typed in whole MB, 1 MB to 1 TB, and says what is wrong otherwise', () => {
    expect(parseHistoryCap('500')).toEqual({ bytes: 500 * 1024 * 1024 });
    expect(parseHistoryCap(' 20 MB ')).toEqual({ bytes: 20 * 1024 * 1024 });
    expect(parseHistoryCap('1048576')).toEqual({ bytes: 1024 * 1024 * 1024 * 1024 });
    for (const bad of ['', '0', '-5', '2.5', 'a lot', '1048577', '1e3']) {
      expect(parseHistoryCap(bad)).toEqual({
        error: 'Type a whole number of megabytes, from 1 to 1048576 (1 TB), for example 500.',
      });
    }
  });

  it('while the server cannot be reached: one steady state, the plain sentence, no problem lines', () => {
    const unreachable = { server: 'http://127.0.0.1:8700', since: 1 };
    for (const state of ['scanning', 'error'] as const)
      expect(stateWords(status({ state, unreachable }))).toBe("Can't reach the agent's server");
    expect(unreachableWords(unreachable)).toBe(
      "Can't reach http://127.0.0.1:8700; your changes are kept and will be sent when it is back.",
    );
    expect(problemLines(status({ state: 'error', unreachable, message: 'x' }))).toEqual([]);
    expect(stateWords(status({ state: 'paused', unreachable }))).toBe('Paused');
    const diskFull = { what: 'the sync folder', where: '/home/ada/notes', since: 1 };
    for (const state of ['scanning', 'error'] as const)
      expect(stateWords(status({ state, diskFull }))).toBe('Paused: the disk is full');
    expect(stateWords(status({ state: 'paused', diskFull }))).toBe('Paused');
    expect(skipWords('unchecked')).toBe(
      "Held: this server can't show whether the agent changed it since the last sync",
    );
  });
});
