/**
 * The person's own sign-in (`agentdesk login`), for `agentdesk sync` run without an agent token:
 * the active account of the data folder, its tokens from the keychain (refreshed as they age), and
 * for "this computer" the local service started in this process, as `agentdesk chat` does.
 */
import { join } from 'node:path';
import type { ApiClient } from '../core/api/api-client';
import { keyringCandidate } from '../core/auth/keyring-secret-store';
import { chooseSecretStore, type SecretStore } from '../core/auth/secret-store';
import { createActiveConnection } from '../core/host/plumbing/connection';
import { silentLogger } from '../core/log/logger';
import { openProfileStore } from '../core/profiles/profile-store';
import { startService } from '../service/index';

export type SignedInApi =
  { ok: true; api: ApiClient; close(): Promise<void> } | { ok: false; message: string };

export async function signedInApi(dataDir: string, secrets?: SecretStore): Promise<SignedInApi> {
  const store = secrets ?? (await chooseSecretStore([keyringCandidate()])).store;
  const profiles = await openProfileStore({ filePath: join(dataDir, 'profiles.json') });
  const connection = createActiveConnection({
    profiles,
    secrets: store,
    localDataDir: join(dataDir, 'local-service'),
    startEmbeddedService: ({ dataDir: serviceData }) => startService({ dataDir: serviceData, port: 0 }),
    logger: silentLogger,
  });
  const connected = await connection.connect();
  if (connected.ok && connected.value.tokens.signedIn) {
    return { ok: true, api: connected.value.api, close: () => connection.close() };
  }
  await connection.close();
  return { ok: false, message: connected.ok ? 'You are not signed in.' : connected.error.message };
}
