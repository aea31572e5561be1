/**
 * The person's own sign-in (`agentdesk login`), for `agentdesk sync` run without an agent token:
 * the active account of the data folder, its tokens from the keychain (refreshed as they age), and
 * for "this computer" the local service started in this process, as `agentdesk chat` does. That service
 * trusts this run as it trusts every other command, so on this computer a sign-in the keychain could not
 * keep (no keychain: it lasts one command) is simply made again, with no password.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ApiClient } from '../core/api/api-client';
import { keyringCandidate } from '../core/auth/keyring-secret-store';
import { chooseSecretStore, type SecretStore } from '../core/auth/secret-store';
import { createActiveConnection } from '../core/host/plumbing/connection';
import { heldByWords } from '../core/host/plumbing/local-service-lease';
import { silentLogger } from '../core/log/logger';
import { openProfileStore } from '../core/profiles/profile-store';
import { ALL_SCOPES } from '../shared/api';
import { startThisComputer } from './this-computer';

export type SignedInApi =
  { ok: true; api: ApiClient; close(): Promise<void> } | { ok: false; message: string };

export async function signedInApi(dataDir: string, secrets?: SecretStore): Promise<SignedInApi> {
  const store = secrets ?? (await chooseSecretStore([keyringCandidate()])).store;
  const profiles = await openProfileStore({ filePath: join(dataDir, 'profiles.json') });
  // This run's proof to the service it starts in this process (docs/security.md): in memory only.
  const launchSecret = randomBytes(32).toString('base64url');
  const connection = createActiveConnection({
    profiles,
    secrets: store,
    localDataDir: join(dataDir, 'local-service'),
    who: 'agentdesk sync',
    startEmbeddedService: (start) => startThisComputer({ ...start, launchSecret, secrets: store }),
    logger: silentLogger,
  });
  const connected = await connection.connect();
  if (connected.ok && !connected.value.tokens.signedIn && connected.value.signInApp) {
    const answer = await connected.value.signInApp(ALL_SCOPES.join(' '));
    if (answer.ok) {
      await connected.value.tokens.signIn({
        accessToken: answer.tokens.access_token,
        refreshToken: answer.tokens.refresh_token,
        expiresAt: Date.now() + answer.tokens.expires_in * 1000,
        scope: answer.tokens.scope.split(' ').filter(Boolean),
      });
    }
  }
  if (connected.ok && connected.value.tokens.signedIn) {
    return { ok: true, api: connected.value.api, close: () => connection.close() };
  }
  await connection.close();
  if (!connected.ok) return { ok: false, message: connected.error.message };
  const held = connected.value.heldBy;
  return { ok: false, message: held ? heldByWords(held) : 'You are not signed in.' };
}
