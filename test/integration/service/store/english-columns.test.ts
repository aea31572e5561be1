import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentConfigStore } from '../../../../src/service/agent-config/config-store';
import { createTestClock } from '../../../../src/service/clock';
import { createDeviceStore } from '../../../../src/service/connectors/devices';
import { createConversationStore } from '../../../../src/service/conversations/conversation-store';
import { openDatabase } from '../../../../src/service/db/database';
import { migrations } from '../../../../src/service/db/migrations';
import { prepare } from '../../../../src/service/db/statement';
import { createAgentStore } from '../../../../src/service/identity/agents';
import { createTokenCache } from '../../../../src/service/identity/token-cache';
import { createLibraryStore } from '../../../../src/service/library/library-store';
import { freshDatabase } from '../../../support/postgres';

// Migration 007 renames the store's Spanish columns (estado, origen, protocolo, tools_canales, nombre,
// plataforma, entorno) to English. A database made by the schema before it, on either engine, keeps every
// row, and the stores read those rows under the new names.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-columns-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const before007 = migrations.slice(
  0,
  migrations.findIndex((step) => step.id === '007_english_columns'),
);

const engines: [string, () => Promise<{ dataDir: string; databaseUrl?: string }>][] = [
  ['the embedded file', async () => ({ dataDir: await mkdtemp(join(dir, 'file-')) })],
  ['PostgreSQL', async () => ({ dataDir: dir, databaseUrl: await freshDatabase() })],
];

describe.each(engines)('on %s', (_name, place) => {
  it('a database of the old schema keeps its rows, read under the English names', async () => {
    expect(before007.length).toBe(6);
    const { dataDir, databaseUrl } = await place();
    const old = await openDatabase(dataDir, { databaseUrl, migrations: before007 });
    try {
      const run = (text: string, ...values: unknown[]) => prepare(old, text).run(...values);
      await run(
        "INSERT INTO persons (id, email, password_hash, created_at) VALUES ('p', 'p@example.test', 'h', 1)",
      );
      await run(
        "INSERT INTO agents (id, person_id, name, engine, origen, protocolo, created_at) VALUES ('a', 'p', 'Old', 'engine-b', 'partner', 'sse', 2)",
      );
      await run("INSERT INTO conversations (id, agent_id, person_id, created_at) VALUES ('c', 'a', 'p', 3)");
      await run(
        "INSERT INTO turns (conversation_id, turn_id, person_id, requester, estado, at) VALUES ('c', 't1', 'p', 'r', 'stopped', 4)",
      );
      await run(
        `INSERT INTO agent_configs (agent_id, tools_canales, updated_at) VALUES ('a', '{"web":{"account_files":false}}', 5)`,
      );
      await run(
        "INSERT INTO account_files (id, person_id, nombre, mime_type, size, sha256, created_at) VALUES ('f', 'p', 'notes.md', 'text/markdown', 3, 'x', 6)",
      );
      await run(
        "INSERT INTO devices (token_hash, person_id, plataforma, entorno, created_at, updated_at) VALUES ('d', 'p', 'ios', 'sandbox', 7, 7)",
      );
    } finally {
      await old.destroy();
    }

    const db = await openDatabase(dataDir, { databaseUrl });
    try {
      const clock = createTestClock();
      expect(await createAgentStore(db, clock, createTokenCache(clock)).find('a')).toMatchObject({
        name: 'Old',
        origin: 'partner',
        protocol: 'sse',
      });
      expect(await createConversationStore(db).lastTurn('c')).toEqual({
        turn_id: 't1',
        state: 'stopped',
        at: 4,
      });
      expect((await createAgentConfigStore(db, clock).read('a')).vetoes.channels).toEqual({
        web: { account_files: false },
      });
      expect(await createLibraryStore(db, clock, dataDir).find('f')).toMatchObject({
        name: 'notes.md',
        size: 3,
      });
      const device = await prepare(db, 'SELECT platform, environment FROM devices').all();
      expect(device).toEqual([{ platform: 'ios', environment: 'sandbox' }]);
      expect(await createDeviceStore(db, clock).count('p')).toBe(1);
      // The checks moved with the column: a state outside the five is still refused.
      await expect(
        prepare(
          db,
          "INSERT INTO turns (conversation_id, turn_id, person_id, requester, state, at) VALUES ('c', 't2', 'p', 'r', 'lost', 8)",
        ).run(),
      ).rejects.toThrow();
    } finally {
      await db.destroy();
    }
  });
});
