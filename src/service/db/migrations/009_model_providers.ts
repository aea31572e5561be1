import type { Migration } from './types';

/**
 * The model providers a person added in Settings → Models (our extension, `/api/v2/me/model-providers`):
 * the kind, the address and the key, sealed (AES-256-GCM, key in <dataDir>/keys/model-provider-keys.key)
 * because the service must send it to the provider.
 */
export const modelProviders009: Migration = {
  id: '009_model_providers',
  sql: `
CREATE TABLE model_providers (
  id TEXT PRIMARY KEY,
  person_id TEXT NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  base_url TEXT NOT NULL,
  sealed_key TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX model_providers_person ON model_providers (person_id, created_at);
`,
};
