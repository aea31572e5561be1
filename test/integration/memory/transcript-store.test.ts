import Database from 'libsql';
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyMemoryMigrations } from '../../../src/core/memory/memory-database';
import { memoryMigrations } from '../../../src/core/memory/memory-migrations';
import { TranscriptStore } from '../../../src/core/memory/transcript-store';
import { TurnRecorder } from '../../../src/core/memory/turn-recorder';

/** Real SQLite files in a temporary folder; nothing is mocked. */
let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'memory-'));
  file = join(dir, 'profiles', 'p1', 'memory', 'transcripts.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const T = Date.parse('2026-11-20T10:00:00Z');

/** Streams one demo-like turn through the recorder, with stream ids as the service stamps them. */
function streamTurn(recorder: TurnRecorder, conversationId: string, turnId: string, reply: string[]): void {
  let n = 0;
  const send = (event: string, data: unknown) =>
    recorder.observe('agent-a', conversationId, { event, data, id: `${turnId}.${++n}` });
  send('started', { turnId });
  send('models', { options: [{ id: 'demo-fast' }, { id: 'demo-deep' }], current: 'demo-fast' });
  send('thought', { text: 'Let me ' });
  send('thought', { text: 'think.' });
  send('tool', { id: 't1', title: 'Write notes.md', kind: 'edit', status: 'pending', path: 'notes.md' });
  send('permission', { id: 'p1', title: 'Write notes.md', options: [{ optionId: 'allow', name: 'Allow' }] });
  send('permission-resolved', { id: 'p1', optionId: 'allow', por: 'person' });
  send('tool', { id: 't1', status: 'completed' });
  for (const text of reply) send('chunk', { text, turnId });
  send('usage', { input: 10, output: 20, cost: 0.01 });
  send('done', { turnId, state: 'done' });
}

describe('transcript store on disk', () => {
  it('creates the database with its migrations, WAL and mode 0600, and re-opens without re-applying', () => {
    const store = TranscriptStore.open(file);
    store.saveConversation('agent-a', 'c1', { title: 'Hello' });
    store.close();
    if (process.platform !== 'win32') {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      for (const companion of ['-wal', '-shm']) {
        if (existsSync(file + companion)) expect(statSync(file + companion).mode & 0o777).toBe(0o600);
      }
    }
    const db = new Database(file);
    expect(db.prepare('PRAGMA journal_mode').get()).toMatchObject({ journal_mode: 'wal' });
    expect(applyMemoryMigrations(db, memoryMigrations)).toEqual([]);
    const ids = db.prepare('SELECT id FROM memory_migrations').all() as { id: string }[];
    expect(ids.map((r) => r.id)).toEqual(memoryMigrations.map((m) => m.id));
    db.close();
  });

  it('applies only the steps a database lacks, in order', () => {
    const db = new Database(join(dir, 'partial.db'));
    expect(applyMemoryMigrations(db, memoryMigrations.slice(0, 1))).toEqual(['001_transcripts']);
    const next = { id: '999_extra', sql: 'CREATE TABLE extra (x INTEGER)' };
    expect(applyMemoryMigrations(db, [...memoryMigrations, next])).toEqual([
      ...memoryMigrations.slice(1).map((m) => m.id),
      '999_extra',
    ]);
    expect(applyMemoryMigrations(db, [...memoryMigrations, next])).toEqual([]);
    db.close();
  });

  it('records a streamed turn in batches and merges it with the server history after a restart', async () => {
    let store = TranscriptStore.open(file);
    const recorder = new TurnRecorder(store, { flushMs: 10_000 });
    recorder.noteSent('agent-a', 'c1', {
      turnId: 'u1',
      content: 'write notes',
      attachments: [
        {
          name: 'cat.png',
          mimeType: 'image/png',
          size: 2048,
          thumbnail: 'data:image/png;base64,iVBORw0KGgo=',
        },
        { name: 'a.pdf', mimeType: 'application/pdf', size: 99 },
      ],
    });
    streamTurn(recorder, 'c1', 'u1', ['Done, ', 'I wrote ', 'notes.md.']);
    // Nothing is written on the hot path: the turn's end is written on the next tick.
    expect(store.storedTurns('c1')).toEqual([]);
    await vi.waitFor(() => expect(store.storedTurns('c1')).not.toEqual([]));
    recorder.close();
    store.close();

    store = TranscriptStore.open(file);
    const merged = store.merged('c1', {
      skipped: 0,
      messages: [
        { role: 'user', content: 'write notes', at: T },
        { role: 'assistant', content: 'Done, I wrote notes.md.', at: T + 1000 },
      ],
    });
    const [question, reply] = merged.messages;
    expect(question!.attachments).toEqual([
      { name: 'cat.png', mimeType: 'image/png', size: 2048, thumbnail: 'data:image/png;base64,iVBORw0KGgo=' },
      { name: 'a.pdf', mimeType: 'application/pdf', size: 99 },
    ]);
    const detail = reply!.detail!;
    expect(detail.state).toBe('done');
    expect(detail.storedText).toBeUndefined();
    expect(detail.usage).toEqual({ input: 10, output: 20, cost: 0.01 });
    expect(detail.models).toMatchObject({ current: 'demo-fast' });
    expect(detail.events.map((e) => e.event)).toEqual([
      'thought',
      'tool',
      'permission',
      'permission-resolved',
      'chunk',
    ]);
    expect(detail.events[0]!.data).toEqual({ text: 'Let me think.' });
    expect(detail.events[1]!.data).toMatchObject({
      id: 't1',
      status: 'completed',
      path: 'notes.md',
      kind: 'edit',
    });
    expect(detail.events[3]!.data).toMatchObject({ optionId: 'allow', por: 'person' });
    expect(detail.events[4]!.data).toEqual({ text: 'Done, I wrote notes.md.' });
    expect(store.latestModels('c1')).toMatchObject({ current: 'demo-fast' });
    store.close();
  });

  it('folds a reconnect replay once: events with known stream ids are skipped, also after a restart', () => {
    let store = TranscriptStore.open(file);
    let recorder = new TurnRecorder(store);
    recorder.observe('agent-a', 'c1', { event: 'started', data: { turnId: 'u1' }, id: 'u1.1' });
    recorder.observe('agent-a', 'c1', { event: 'chunk', data: { text: 'Hel', turnId: 'u1' }, id: 'u1.2' });
    recorder.close();
    store.close();
    store = TranscriptStore.open(file);
    recorder = new TurnRecorder(store);
    // The server replays the running turn from its start on connect.
    recorder.observe('agent-a', 'c1', { event: 'started', data: { turnId: 'u1' }, id: 'u1.1' });
    recorder.observe('agent-a', 'c1', { event: 'chunk', data: { text: 'Hel', turnId: 'u1' }, id: 'u1.2' });
    recorder.observe('agent-a', 'c1', { event: 'chunk', data: { text: 'lo', turnId: 'u1' }, id: 'u1.3' });
    recorder.observe('agent-a', 'c1', { event: 'done', data: { turnId: 'u1', state: 'done' }, id: 'u1.4' });
    recorder.close();
    expect(store.storedTurns('c1')[0]!.replyText).toBe('Hello');
    store.close();
  });

  it('keeps the detail beside the server text when they disagree, and shows unseen turns as plain text', () => {
    const store = TranscriptStore.open(file);
    const recorder = new TurnRecorder(store);
    recorder.noteSent('agent-a', 'c1', { turnId: 'u1', content: 'write notes' });
    streamTurn(recorder, 'c1', 'u1', ['I wrote it']);
    recorder.close();
    const merged = store.merged('c1', {
      skipped: 0,
      messages: [
        { role: 'user', content: 'scheduled: daily summary', at: T - 5000 },
        { role: 'assistant', content: 'Summary of the day', at: T - 4000 },
        { role: 'user', content: 'write notes', at: T },
        { role: 'assistant', content: 'I wrote it, corrected by the server', at: T + 1000 },
      ],
    });
    const [unseenQuestion, unseenReply, question, reply] = merged.messages;
    expect(unseenQuestion).toEqual({
      position: 0,
      role: 'user',
      content: 'scheduled: daily summary',
      at: T - 5000,
    });
    expect(unseenReply!.detail).toBeUndefined();
    expect(question!.position).toBe(2);
    expect(reply!.content).toBe('I wrote it, corrected by the server');
    expect(reply!.detail!.storedText).toBe('I wrote it');
    const chunks = reply!.detail!.events.filter((e) => e.event === 'chunk');
    expect(chunks).toEqual([{ event: 'chunk', data: { text: 'I wrote it, corrected by the server' } }]);
    expect(reply!.detail!.events.some((e) => e.event === 'tool')).toBe(true);
    store.close();
  });

  it('keeps a copy of the text for reading offline, replaced by the server history from its tail on', () => {
    const store = TranscriptStore.open(file);
    store.saveHistory(
      'agent-a',
      'c1',
      [
        { role: 'user', content: 'one', at: T },
        { role: 'assistant', content: 'two', at: T + 1 },
      ],
      0,
      'v1',
    );
    const recorder = new TurnRecorder(store);
    recorder.noteSent('agent-a', 'c1', { turnId: 'u2', content: 'three' });
    streamTurn(recorder, 'c1', 'u2', ['four']);
    recorder.close();
    const offline = store.merged('c1');
    expect(offline.messages.map((m) => m.content)).toEqual(['one', 'two', 'three', 'four']);
    expect(offline.messages[3]!.detail?.turnId).toBe('u2');
    expect(store.hasFullHistory('c1', 'v1')).toBe(true);
    store.saveHistory(
      'agent-a',
      'c1',
      [
        { role: 'user', content: 'three', at: T + 2 },
        { role: 'assistant', content: 'four!', at: T + 3 },
      ],
      2,
    );
    expect(store.readHistory('c1').messages.map((m) => m.content)).toEqual(['one', 'two', 'three', 'four!']);
    store.close();
  });

  it('clears a profile: nothing is found or merged afterwards, and destroy removes the files', () => {
    const store = TranscriptStore.open(file);
    store.saveHistory('agent-a', 'c1', [{ role: 'user', content: 'remember the lighthouse', at: T }], 0);
    const recorder = new TurnRecorder(store);
    streamTurn(recorder, 'c1', 'u1', ['lighthouse keeper']);
    recorder.close();
    expect(store.search({ text: 'lighthouse' }).length).toBeGreaterThan(0);
    store.clear();
    expect(store.search({ text: 'lighthouse' })).toEqual([]);
    expect(store.storedTurns('c1')).toEqual([]);
    expect(store.readHistory('c1').messages).toEqual([]);
    store.destroy();
    expect(existsSync(file)).toBe(false);
    expect(existsSync(file + '-wal')).toBe(false);
  });
});

describe('search', () => {
  function seeded(): TranscriptStore {
    const store = TranscriptStore.open(file);
    store.saveConversation('agent-a', 'c1', { title: 'Deploys' });
    store.saveConversation('agent-b', 'c2', { title: 'Cooking' });
    store.saveHistory(
      'agent-a',
      'c1',
      [
        { role: 'user', content: 'How did the deployment of the canción service go?', at: T },
        { role: 'assistant', content: 'The deployment finished without errors.', at: T + 1000 },
      ],
      0,
    );
    store.saveHistory(
      'agent-b',
      'c2',
      [
        { role: 'user', content: 'A recipe for paella, please', at: T + 86_400_000 },
        { role: 'assistant', content: 'Paella needs rice and a deployment of patience.', at: T + 86_401_000 },
      ],
      0,
    );
    return store;
  }

  it('finds words by prefix, ignoring case and accents, with highlighted snippets', () => {
    const store = seeded();
    const hits = store.search({ text: 'DEPLO' });
    expect(hits.map((h) => `${h.conversationId}:${h.position}`).sort()).toEqual(['c1:0', 'c1:1', 'c2:1']);
    const first = hits.find((h) => h.conversationId === 'c1' && h.position === 1)!;
    expect(first).toMatchObject({ agentId: 'agent-a', title: 'Deploys', role: 'assistant', at: T + 1000 });
    expect(first.snippet.filter((s) => s.hit).map((s) => s.text)).toEqual(['deployment']);
    expect(first.snippet.map((s) => s.text).join('')).toBe('The deployment finished without errors.');
    expect(store.search({ text: 'cancion' }).map((h) => h.position)).toEqual([0]);
    store.close();
  });

  it('filters by agent and by date, and needs every word', () => {
    const store = seeded();
    expect(store.search({ text: 'deployment', agentId: 'agent-b' }).map((h) => h.conversationId)).toEqual([
      'c2',
    ]);
    expect(store.search({ text: 'deployment', from: T + 3600_000 }).map((h) => h.conversationId)).toEqual([
      'c2',
    ]);
    expect(
      store
        .search({ text: 'deployment', to: T + 3600_000 })
        .map((h) => h.conversationId)
        .sort(),
    ).toEqual(['c1', 'c1']);
    expect(store.search({ text: 'deployment paella' }).map((h) => h.conversationId)).toEqual(['c2']);
    store.close();
  });

  it('treats FTS5 syntax as plain words and ignores empty queries', () => {
    const store = seeded();
    expect(store.search({ text: '   ' })).toEqual([]);
    expect(store.search({ text: '"paella" OR NEAR(' })).toEqual([]);
    expect(store.search({ text: 'paella AND' }).map((h) => h.position)).toEqual([1]);
    expect(store.search({ text: 'paella")' }).length).toBe(2);
    store.close();
  });
});
