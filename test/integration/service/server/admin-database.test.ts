/**
 * The admin commands (`user add`, `invite add`, `client add`, the real `npm run service` process) take
 * `--database` as the service does, and work on that store, not on the data folder's file.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src/service/db/database';
import { prepare } from '../../../../src/service/db/statement';
import { freshDatabase } from '../../../support/postgres';
import { serviceCli } from '../../../support/service-process';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('admin commands with --database', { timeout: 120_000 }, () => {
  it('user add, invite add and client add write to the PostgreSQL database named', async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentdesk-admin-db-'));
    const database = await freshDatabase();
    const store = ['--data', dir, '--database', database];

    const user = await serviceCli([
      'user',
      'add',
      '--email',
      'ana@example.test',
      '--password',
      'a long pass',
      ...store,
    ]);
    expect(user).toMatchObject({ code: 0 });
    const invite = await serviceCli([
      'invite',
      'add',
      '--email',
      'bea@example.test',
      '--public-url',
      'https://desk.example.test',
      ...store,
    ]);
    expect(invite).toMatchObject({ code: 0 });
    const client = await serviceCli([
      'client',
      'add',
      '--name',
      'Notes',
      '--redirect-uri',
      'https://notes.example.test/cb',
      '--scopes',
      'profile',
      ...store,
    ]);
    expect(client).toMatchObject({ code: 0 });

    const db = await openDatabase('', { databaseUrl: database });
    try {
      const persons = await prepare<{ email: string }>(db, 'SELECT email FROM persons').all();
      expect(persons.map((p) => p.email)).toEqual(['ana@example.test']);
      const invites = await prepare<{ email: string }>(db, 'SELECT email FROM invites').all();
      expect(invites.map((i) => i.email)).toEqual(['bea@example.test']);
    } finally {
      await db.destroy();
    }
    // The data folder's own file was never made.
    expect(existsSync(join(dir, 'service.db'))).toBe(false);
  });
});
