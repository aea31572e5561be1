import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TranscriptStore } from '../../../src/core/memory/transcript-store';

/**
 * The store's writer thread (memory-writer.ts), on real SQLite files: the slices of a downloaded history,
 * long messages and the index's merges are written by a thread of their own, so the host's event loop stays
 * mostly idle while they are; closing the store mid-way loses nothing already written.
 */
let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'memory-writer-'));
  file = join(dir, 'transcripts.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const T = Date.parse('2026-11-20T10:00:00Z');
const history = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => ({
    role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
    content: `zephyr message ${from + i} about the harbour, the lighthouse and the tide tables`,
    at: T + from + i,
  }));

describe('the memory store writer thread', () => {
  it('stores and indexes a long history while the host thread is mostly idle', async () => {
    const store = TranscriptStore.open(file);
    // The writer thread is started and loaded before the measure (its start is not the host's work).
    await store.indexed();
    const before = performance.eventLoopUtilization();
    await store.saveHistoryInSlices('agent-a', 'c1', history(5000), 0, 'v1');
    await store.indexed();
    const used = performance.eventLoopUtilization(before);
    // Written on the host, this was the host's busiest work (its loop near fully used); here it waits.
    expect(used.utilization).toBeLessThan(0.5);
    expect(store.readHistory('c1').messages).toHaveLength(5000);
    expect(store.hasFullHistory('c1', 'v1')).toBe(true);
    expect(store.search({ text: 'zephyr 4999' }).some((hit) => hit.position === 4999)).toBe(true);
    await store.close();
  });

  it('closed while it writes, keeps what was written; a reopened store goes on', async () => {
    const store = TranscriptStore.open(file);
    const abort = new AbortController();
    const writing = store.saveHistoryInSlices('agent-a', 'c1', history(4000), 0, 'v1', abort.signal);
    // Stop after a few slices: the abort is seen between slices, the close lets the current step end.
    await new Promise((resolve) => setTimeout(resolve, 200));
    abort.abort();
    await writing;
    await store.close();

    const again = TranscriptStore.open(file);
    const kept = again.readHistory('c1').messages.length;
    expect(kept % 200).toBe(0); // whole slices only
    expect(again.hasFullHistory('c1', 'v1')).toBe(false);
    await again.saveHistoryInSlices('agent-a', 'c1', history(4000), 0, 'v1');
    await again.indexed();
    expect(again.readHistory('c1').messages).toHaveLength(4000);
    expect(again.hasFullHistory('c1', 'v1')).toBe(true);
    expect(again.search({ text: 'zephyr 3999' }).some((hit) => hit.position === 3999)).toBe(true);
    await again.close();
  });
});
