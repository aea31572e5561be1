/**
 * A conversation read while another process closes its turn (two service processes on one database: the
 * turn runs on one, the reader asks the other). The closing process writes the reply, then the turn's end,
 * in that order; the read asks for the messages and the latest turn in two statements. Those writes land
 * here between the read's two statements, on a real database, through a second store (its own write
 * queue, as another process has). A read that says the turn ended must hold its reply: the app takes such
 * a read as the whole turn and drops what it streamed, so a reply missing from it vanished from the
 * screen for good (two-devices.spec, a quiet README run).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConversationStore } from '../../../../src/service/conversations/conversation-store';
import { openDatabase } from '../../../../src/service/db/database';
import { prepare } from '../../../../src/service/db/statement';
import { createConversationService } from '../../../../src/service/turns/conversation-service';
import type { ConversationsArea } from '../../../../src/service/turns/conversations-area';
import { freshDatabase } from '../../../support/postgres';

const engines: [string, (dir: string) => Promise<string | undefined>][] = [
  ['the embedded file', async () => undefined],
  ['PostgreSQL', () => freshDatabase()],
];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(engines)('on %s', (_name, databaseUrlFor) => {
  it('a read that says the turn ended holds its reply, however the closing writes fall between its statements', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentdesk-read-closing-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const db = await openDatabase(dir, { databaseUrl: await databaseUrlFor(dir) });
    cleanups.push(() => db.destroy());
    await prepare(
      db,
      "INSERT INTO persons (id, email, password_hash, created_at) VALUES ('p', 'p@example.test', 'h', 1)",
    ).run();
    await prepare(
      db,
      "INSERT INTO agents (id, person_id, name, engine, origin, protocol, created_at) VALUES ('a', 'p', 'A', 'engine-b', 'partner', 'sse', 2)",
    ).run();

    // The process running the turn.
    const runner = createConversationStore(db);
    const id = await runner.create('a', 'p', 3);
    await runner.insertTurn(id, 't1', 'p', 'r', 'running', 4);
    await runner.addMessage(id, 't1', 'user', 'Plans for the picnic', 5);
    const closeTurn = async () => {
      await runner.addMessage(id, 't1', 'assistant', 'Bring lemonade', 6);
      await runner.setTurnState(id, 't1', 'done', 6);
    };

    // The process reading: its first statement runs, then the turn closes, then its second statement.
    const reader = createConversationStore(db);
    let statements = 0;
    const between =
      <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        const answer = await read(...args);
        if ((statements += 1) === 1) await closeTurn();
        return answer;
      };
    const store = { ...reader, tail: between(reader.tail), lastTurn: between(reader.lastTurn) };
    const service = createConversationService({ store } as unknown as ConversationsArea, {
      familyOf: async () => null,
    });

    const row = (await reader.find('a', id))!;
    const read = await service.read(row, 50);
    expect(statements).toBe(2);
    const ended = read.lastTurn?.state === 'done';
    const replied = read.messages.some((m) => m.role === 'assistant' && m.content === 'Bring lemonade');
    expect({ ended, replied }).not.toEqual({ ended: true, replied: false });
    // And a read after the close has both.
    const after = await service.read(row, 50);
    expect(after.lastTurn?.state).toBe('done');
    expect(after.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
