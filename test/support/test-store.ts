import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import { openDatabase, type ServiceDatabase } from '../../src/service/db/database';
import { prepare } from '../../src/service/db/statement';
import { cluster, freshDatabase } from './postgres';

/**
 * Which store the service under test keeps its tables in: the embedded file (the default), or PostgreSQL
 * when the run sets AGENTDESK_TEST_STORE=postgres (vitest's `service-postgres` project does). Every helper
 * that starts a service asks `storeConfig` for its data folder.
 */
export function testStore(): 'file' | 'postgres' {
  return process.env['AGENTDESK_TEST_STORE'] === 'postgres' ? 'postgres' : 'file';
}

// One database per data folder: a service restarted on the same folder finds its tables again.
const databases = new Map<string, Promise<string>>();
let template: Promise<string> | undefined;

/** The config keys that put a service on the run's store: `{}` for the file, `{ database }` for PostgreSQL. */
export async function storeConfig(dataDir: string): Promise<{ database?: string }> {
  if (testStore() !== 'postgres') return {};
  let url = databases.get(dataDir);
  if (!url) {
    url = migratedDatabase();
    databases.set(dataDir, url);
  }
  return { database: await url };
}

/**
 * A new database with every migration applied: a copy of one migrated once per worker (copying is a
 * fraction of migrating, and most test files start several services).
 */
async function migratedDatabase(): Promise<string> {
  template ??= freshDatabase().then(async (url) => {
    await (await openDatabase('', { databaseUrl: url })).destroy();
    return url;
  });
  const source = new URL(await template).pathname.slice(1);
  const { adminUrl } = await cluster();
  const name = `t_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${source}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A database of its own on the run's store (a new data folder), with each of `people` as a person row, for a
 * test of one store; closed and deleted when the test ends.
 */
export async function storeWithPeople(people: string[]): Promise<ServiceDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'agentdesk-store-'));
  const db = await openDatabase(dir, { databaseUrl: (await storeConfig(dir)).database }).catch(
    async (error: unknown) => {
      await rm(dir, { recursive: true, force: true });
      throw error;
    },
  );
  onTestFinished(async () => {
    await db.destroy();
    await rm(dir, { recursive: true, force: true });
  });
  const insert = prepare(
    db,
    'INSERT INTO persons (id, email, password_hash, created_at) VALUES (?, ?, ?, 1)',
  );
  for (const person of people) await insert.run(person, `${person}@example.test`, 'h');
  return db;
}
