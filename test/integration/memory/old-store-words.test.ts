import Database from 'libsql';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyMemoryMigrations } from '../../../src/core/memory/memory-database';
import { memoryMigrations } from '../../../src/core/memory/memory-migrations';
import { TranscriptStore } from '../../../src/core/memory/transcript-store';
import type { AgentList } from '../../../src/shared/api';

/**
 * A store written by a build that kept the wire's words (`{agentes, usuario}`, a turn's `estado`; issue 25) opens in ours:
 * real SQLite files, the old schema made by the released migration steps, then the store opened as the app does.
 */
let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'memory-words-'));
  file = join(dir, 'profiles', 'p1', 'memory', 'transcripts.db');
  mkdirSync(dirname(file), { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A database as the build before the step `firstNew` left it, filled by `fill`. */
function oldStore(firstNew: string, fill: (db: InstanceType<typeof Database>) => void): void {
  const db = new Database(file);
  const released = memoryMigrations.filter((m) => m.id < firstNew);
  expect(released.length).toBeGreaterThan(0);
  applyMemoryMigrations(db, released);
  fill(db);
  db.close();
}

describe('a transcript store kept in the wire words', () => {
  it('reads the stored agent list in our words', () => {
    const wire = {
      agentes: [
        {
          id: 'a1',
          nombre: 'Écrivain',
          origen: 'gs',
          protocolo: 'acp',
          conexion: { tipo: 'acp', host: 'machine.local', token: 'tok-1' },
          necesitaToken: false,
        },
        {
          id: 'a2',
          nombre: 'Partner',
          origen: 'partner',
          protocolo: 'sse',
          conexion: { tipo: 'partner', agentId: 'p-9', token: 'tok-2' },
          necesitaToken: true,
        },
        { id: 'a3', nombre: 'Bare', origen: 'gs', protocolo: 'http', conexion: null, necesitaToken: false },
      ],
      usuario: { id: 'u1', email: 'ana@example.com' },
    };
    oldStore('007', (db) =>
      db.prepare('INSERT INTO snapshots (key, value) VALUES (?, ?)').run('agents', JSON.stringify(wire)),
    );

    const store = TranscriptStore.open(file);
    const list = store.lists.snapshot<AgentList>('agents');
    store.close();
    // The agents' connection tokens are not kept (migration 010): no token in plain text on disk.
    const raw = new Database(file).prepare("SELECT value FROM snapshots WHERE key = 'agents'").get() as {
      value: string;
    };
    expect(raw.value).not.toMatch(/tok-[12]/);
    expect(list).toEqual({
      agents: [
        {
          id: 'a1',
          name: 'Écrivain',
          origin: 'gs',
          protocol: 'acp',
          connection: { kind: 'acp', host: 'machine.local' },
          needsToken: false,
        },
        {
          id: 'a2',
          name: 'Partner',
          origin: 'partner',
          protocol: 'sse',
          connection: { kind: 'partner', agentId: 'p-9' },
          needsToken: true,
        },
        { id: 'a3', name: 'Bare', origin: 'gs', protocol: 'http', connection: null, needsToken: false },
      ],
      user: { id: 'u1', email: 'ana@example.com' },
    } satisfies AgentList);
  });

  it('keeps an empty list empty and leaves an unreadable snapshot for the next answer to replace', () => {
    oldStore('007', (db) => {
      const put = db.prepare('INSERT INTO snapshots (key, value) VALUES (?, ?)');
      put.run('agents', JSON.stringify({ agentes: [], usuario: { id: 'u1' } }));
      put.run('other', 'not json');
    });
    const store = TranscriptStore.open(file);
    expect(store.lists.snapshot<AgentList>('agents')).toEqual({ agents: [], user: { id: 'u1' } });
    store.close();
  });

  it("reads a stored turn's end state, and goes on writing turns, in our words", () => {
    oldStore('008', (db) => {
      db.prepare('INSERT INTO conversations (id, agent_id, title) VALUES (?, ?, ?)').run('c1', 'a1', 'Old');
      const message = db.prepare(
        'INSERT INTO messages (conversation_id, position, role, content, at, turn_id) VALUES (?, ?, ?, ?, ?, ?)',
      );
      message.run('c1', 0, 'user', 'Stop halfway', 1000, 't1');
      message.run('c1', 1, 'assistant', 'I was', 2000, 't1');
      db.prepare(
        `INSERT INTO turns (conversation_id, turn_id, started_at, user_text, estado, last_event, record)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run('c1', 't1', 1000, 'Stop halfway', 'stopped', 3, JSON.stringify({ events: [] }));
    });

    const store = TranscriptStore.open(file);
    expect(store.loadTurn('c1', 't1')?.state).toBe('stopped');
    const reply = store.merged('c1').messages.find((m) => m.role === 'assistant');
    expect(reply?.detail).toMatchObject({ turnId: 't1', state: 'stopped' });
    expect(reply?.detail).not.toHaveProperty('estado');

    const next = store.loadTurn('c1', 't1')!;
    store.writeTurns([
      { agentId: 'a1', conversationId: 'c1', record: { ...next, turnId: 't2', state: 'done' } },
    ]);
    expect(store.loadTurn('c1', 't2')?.state).toBe('done');
    store.close();
  });

  it("reads a stored tool call's text in our words (the wire's `detalle` becomes `detail`), other events untouched", () => {
    const events = [
      { event: 'chunk', data: { text: 'Looking' } },
      {
        event: 'tool',
        data: { id: 'k1', title: 'Read a.txt', status: 'completed', detalle: 'line 1\nline 2' },
      },
      { event: 'tool', data: { id: 'k2', title: 'List', status: 'failed' } },
      { event: 'error', data: { message: 'detalle is a word here, not a field' } },
    ];
    oldStore('009', (db) => {
      db.prepare('INSERT INTO conversations (id, agent_id, title) VALUES (?, ?, ?)').run('c1', 'a1', 'Old');
      const turn = db.prepare(
        `INSERT INTO turns (conversation_id, turn_id, started_at, user_text, state, last_event, record)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      );
      turn.run('c1', 't1', 1000, 'Read it', 'done', 4, JSON.stringify({ events, usage: { input: 3 } }));
      turn.run('c1', 't2', 2000, 'Again', 'done', 1, JSON.stringify({ events: [events[0]] }));
    });

    const store = TranscriptStore.open(file);
    const first = store.loadTurn('c1', 't1')!;
    expect(first.events).toEqual([
      events[0],
      {
        event: 'tool',
        data: { id: 'k1', title: 'Read a.txt', status: 'completed', detail: 'line 1\nline 2' },
      },
      events[2],
      events[3],
    ]);
    expect(first.usage).toEqual({ input: 3 });
    expect(store.loadTurn('c1', 't2')?.events).toEqual([events[0]]);
    store.close();
  });
});
