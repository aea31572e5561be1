import { freshDatabase } from './postgres';

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

/** The config keys that put a service on the run's store: `{}` for the file, `{ database }` for PostgreSQL. */
export async function storeConfig(dataDir: string): Promise<{ database?: string }> {
  if (testStore() !== 'postgres') return {};
  let url = databases.get(dataDir);
  if (!url) {
    url = freshDatabase();
    databases.set(dataDir, url);
  }
  return { database: await url };
}
