import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { ConfiguredClient } from '../config';
import type { ServiceDatabase } from '../db/database';
import { prepare, type Executor } from '../db/statement';
import { randomSecret, safeEqual, sha256Hex } from '../security/token-hash';
import { redirectUriAllowed } from './redirect-uri';
import { ALL_SCOPES, splitScopes } from './scopes';

export interface OAuthClient {
  id: string;
  name: string;
  confidential: boolean;
  firstParty: boolean;
  redirectUris: string[];
  /** Scope ceiling. */
  scopes: string[];
}

export const DESKTOP_CLIENT_ID = 'agentdesk-desktop';

/** The built-in desktop app: public, first party, loopback redirect on any port. */
const desktopClient: ConfiguredClient = {
  client_id: DESKTOP_CLIENT_ID,
  name: 'AgentDesk',
  redirect_uris: ['http://127.0.0.1/callback'],
  scopes: ALL_SCOPES.join(' '),
  first_party: true,
};

export interface NewClient {
  name: string;
  redirectUris: string[];
  scopes: string;
  confidential?: boolean;
  firstParty?: boolean;
}

interface ClientRow {
  id: string;
  name: string;
  secret_hash: string | null;
  redirect_uris: string;
  scopes: string;
  first_party: number;
}

export function createClientStore(db: ServiceDatabase, clock: Clock) {
  const select = prepare(db, 'SELECT * FROM oauth_clients WHERE id = ?');
  const upsert = prepare(
    db,
    `INSERT INTO oauth_clients (id, name, secret_hash, redirect_uris, scopes, first_party, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, secret_hash = excluded.secret_hash,
       redirect_uris = excluded.redirect_uris, scopes = excluded.scopes, first_party = excluded.first_party`,
  );

  function toClient(row: ClientRow): OAuthClient {
    return {
      id: row.id,
      name: row.name,
      confidential: row.secret_hash !== null,
      firstParty: row.first_party === 1,
      redirectUris: JSON.parse(row.redirect_uris) as string[],
      scopes: splitScopes(row.scopes),
    };
  }

  async function register(client: ConfiguredClient, on: Executor = db): Promise<void> {
    await upsert
      .on(on)
      .run(
        client.client_id,
        client.name,
        client.client_secret_sha256 ?? null,
        JSON.stringify(client.redirect_uris),
        splitScopes(client.scopes).join(' '),
        client.first_party ? 1 : 0,
        clock.now(),
      );
  }

  return {
    /** Registers the built-in desktop client and those of the config file (idempotent, run at start). */
    async registerConfigured(clients: readonly ConfiguredClient[] = []): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await register(desktopClient, trx);
        for (const client of clients) await register(client, trx);
      });
    },
    async create(input: NewClient): Promise<{ client_id: string; client_secret?: string }> {
      const clientId = randomUUID();
      const secret = input.confidential ? randomSecret('gcs_') : undefined;
      await register({
        client_id: clientId,
        name: input.name,
        redirect_uris: input.redirectUris,
        scopes: input.scopes,
        first_party: input.firstParty,
        client_secret_sha256: secret ? sha256Hex(secret) : undefined,
      });
      return secret ? { client_id: clientId, client_secret: secret } : { client_id: clientId };
    },
    async find(id: string): Promise<OAuthClient | null> {
      const row = (await select.get(id)) as ClientRow | undefined;
      return row ? toClient(row) : null;
    },
    /**
     * Client authentication at the token and revoke endpoints. A confidential client must present its secret;
     * a public client must not claim one it does not have.
     */
    async authenticate(id: string, secret: string | undefined): Promise<OAuthClient | null> {
      const row = (await select.get(id)) as ClientRow | undefined;
      if (!row) return null;
      if (row.secret_hash === null) return secret === undefined ? toClient(row) : null;
      if (secret === undefined || !safeEqual(sha256Hex(secret), row.secret_hash)) return null;
      return toClient(row);
    },
    redirectAllowed(client: OAuthClient, redirectUri: string): boolean {
      return redirectUriAllowed(client.redirectUris, redirectUri);
    },
  };
}

export type ClientStore = ReturnType<typeof createClientStore>;
