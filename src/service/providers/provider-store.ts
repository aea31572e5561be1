import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { TokenSealer } from '../connectors/token-sealer';
import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';
import type { ProviderKind } from '../../shared/api/routes/model-providers';

/** A provider a person added in Settings → Models; `key` is open only in memory, sealed in the store. */
export interface StoredProvider {
  id: string;
  kind: ProviderKind;
  name: string;
  base: string;
  key?: string;
}

interface Row {
  id: string;
  kind: ProviderKind;
  name: string;
  base_url: string;
  sealed_key: string | null;
}

/** The `model_providers` table (migration 009): one row per provider a person added, the key sealed. */
export function createProviderStore(db: ServiceDatabase, clock: Clock, sealer: TokenSealer) {
  const listOf = prepare<Row>(
    db,
    'SELECT id, kind, name, base_url, sealed_key FROM model_providers WHERE person_id = ? ORDER BY created_at, id',
  );
  const insert = prepare(
    db,
    `INSERT INTO model_providers (id, person_id, kind, name, base_url, sealed_key, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const remove = prepare(db, 'DELETE FROM model_providers WHERE person_id = ? AND id = ?');

  // A key sealed under a sealing key that is gone (a keychain reset) cannot be opened: the provider stays
  // listed without it, and its provider's refusal says so in words, rather than every list failing.
  const openedKey = (sealed: string): { key?: string } => {
    try {
      return { key: sealer.open(sealed) };
    } catch {
      return {};
    }
  };
  const open = (row: Row): StoredProvider => ({
    id: row.id,
    kind: row.kind,
    name: row.name,
    base: row.base_url,
    ...(row.sealed_key ? openedKey(row.sealed_key) : {}),
  });

  return {
    async list(personId: string): Promise<StoredProvider[]> {
      return (await listOf.all(personId)).map(open);
    },
    async add(personId: string, provider: Omit<StoredProvider, 'id'>): Promise<StoredProvider> {
      const id = `prov_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
      const sealed = provider.key ? sealer.seal(provider.key) : null;
      await insert.run(id, personId, provider.kind, provider.name, provider.base, sealed, clock.now());
      return { id, ...provider };
    },
    /** False when the person has no such provider. */
    async remove(personId: string, id: string): Promise<boolean> {
      return (await remove.run(personId, id)).changes > 0;
    },
  };
}

export type ProviderStore = ReturnType<typeof createProviderStore>;
