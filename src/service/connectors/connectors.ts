import * as oauth from 'oauth4webapi';
import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';
import { sha256Hex } from '../security/token-hash';
import type { TokenSealer } from './token-sealer';

/**
 * A provider configured in `<dataDir>/config.json` under `connectors` (OAuth 2.0 authorization code with
 * PKCE). It is available (the wire's `disponible`) once it has endpoints and a client id; the secret is read from the
 * environment variable `clientSecretEnv` (preferred) or `clientSecret`.
 */
export interface ConnectorProviderConfig {
  id: string;
  nombre: string;
  issuer?: string;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  revocationEndpoint?: string;
  clientId?: string;
  clientSecret?: string;
  clientSecretEnv?: string;
  scope?: string;
}

/** Where providers send the browser back (on the service's own origin, outside /api/v2: no bearer there). */
export const CONNECTOR_CALLBACK_PATH = '/conectores/callback';
const START_TTL_MS = 10 * 60_000;
const CONNECTOR_ID = /^[a-z0-9][a-z0-9_-]{0,40}$/;

interface Provider {
  id: string;
  /** The config's `nombre`. */
  name: string;
  as: oauth.AuthorizationServer | null;
  client: oauth.Client | null;
  auth: oauth.ClientAuth | null;
  scope: string;
}

export type StartResult = { ok: true; url: string } | { ok: false; error: 'not_found' | 'unavailable' };
export type CallbackResult = { ok: true; name: string } | { ok: false; message: string };

/** A provider as a person's list shows it (the wire's `Connector`: `nombre`, `conectado`, `disponible`). */
export interface ConnectorState {
  id: string;
  name: string;
  connected: boolean;
  available: boolean;
}

function toProvider(config: ConnectorProviderConfig): Provider {
  const secret =
    (config.clientSecretEnv ? process.env[config.clientSecretEnv] : undefined) ?? config.clientSecret;
  const usable = Boolean(config.authorizationEndpoint && config.tokenEndpoint && config.clientId);
  return {
    id: config.id,
    name: config.nombre,
    as: usable
      ? {
          issuer: config.issuer ?? new URL(config.authorizationEndpoint!).origin,
          authorization_endpoint: config.authorizationEndpoint,
          token_endpoint: config.tokenEndpoint,
          ...(config.revocationEndpoint ? { revocation_endpoint: config.revocationEndpoint } : {}),
        }
      : null,
    client: usable ? { client_id: config.clientId! } : null,
    auth: usable ? (secret ? oauth.ClientSecretPost(secret) : oauth.None()) : null,
    scope: config.scope ?? '',
  };
}

/** Loopback providers (the demo one) speak plain http; anything else must be https. */
function requestOptions(as: oauth.AuthorizationServer) {
  const loopback = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(:\d+)?$/.test(new URL(as.issuer).origin);
  return loopback ? { [oauth.allowInsecureRequests]: true } : {};
}

export function createConnectors(deps: {
  db: ServiceDatabase;
  clock: Clock;
  sealer: TokenSealer;
  providers: readonly ConnectorProviderConfig[];
  /** The service's origin (known once it listens). */
  baseUrl: () => string;
  log: (line: string) => void;
}) {
  const { db, clock, sealer } = deps;
  const providers = new Map<string, Provider>();
  for (const config of deps.providers) {
    if (!CONNECTOR_ID.test(config.id))
      throw new Error(`connector id "${config.id}" must match ${CONNECTOR_ID}`);
    providers.set(config.id, toProvider(config));
  }
  const insertStart = prepare(
    db,
    'INSERT INTO connector_starts (state_hash, person_id, connector_id, code_verifier, expires_at) VALUES (?, ?, ?, ?, ?)',
  );
  const takeStart = prepare(db, 'DELETE FROM connector_starts WHERE state_hash = ? RETURNING *');
  const purgeStarts = prepare(db, 'DELETE FROM connector_starts WHERE expires_at <= ?');
  const linksOf = prepare<{ connector_id: string }>(
    db,
    'SELECT connector_id FROM connector_links WHERE person_id = ?',
  );
  const linkedIds = async (personId: string) => (await linksOf.all(personId)).map((row) => row.connector_id);
  const linkOf = prepare(db, 'SELECT * FROM connector_links WHERE person_id = ? AND connector_id = ?');
  const upsertLink = prepare(
    db,
    `INSERT INTO connector_links (person_id, connector_id, access_token_sealed, refresh_token_sealed, scope, connected_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (person_id, connector_id) DO UPDATE SET access_token_sealed = excluded.access_token_sealed,
       refresh_token_sealed = excluded.refresh_token_sealed, scope = excluded.scope, connected_at = excluded.connected_at`,
  );
  const deleteLink = prepare(db, 'DELETE FROM connector_links WHERE person_id = ? AND connector_id = ?');
  const callbackUrl = () => `${deps.baseUrl()}${CONNECTOR_CALLBACK_PATH}`;

  interface LinkRow {
    access_token_sealed: string;
    refresh_token_sealed: string | null;
  }

  async function revoke(provider: Provider, row: LinkRow): Promise<void> {
    if (!provider.as?.revocation_endpoint || !provider.client || !provider.auth) return;
    const sealed = row.refresh_token_sealed ?? row.access_token_sealed;
    const response = await oauth.revocationRequest(
      provider.as,
      provider.client,
      provider.auth,
      sealer.open(sealed),
      requestOptions(provider.as),
    );
    await oauth.processRevocationResponse(response);
  }

  return {
    async list(personId: string): Promise<ConnectorState[]> {
      const linked = new Set(await linkedIds(personId));
      return [...providers.values()].map((p) => ({
        id: p.id,
        name: p.name,
        connected: linked.has(p.id),
        available: p.as !== null,
      }));
    },

    /** A fresh authorization URL (state and PKCE verifier kept 10 minutes, single use). */
    async start(personId: string, connectorId: string): Promise<StartResult> {
      const provider = providers.get(connectorId);
      if (!provider) return { ok: false, error: 'not_found' };
      if (!provider.as || !provider.client) return { ok: false, error: 'unavailable' };
      await purgeStarts.run(clock.now());
      const state = oauth.generateRandomState();
      const verifier = oauth.generateRandomCodeVerifier();
      await insertStart.run(
        sha256Hex(state),
        personId,
        connectorId,
        sealer.seal(verifier),
        clock.now() + START_TTL_MS,
      );
      const url = new URL(provider.as.authorization_endpoint!);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', provider.client.client_id);
      url.searchParams.set('redirect_uri', callbackUrl());
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
      url.searchParams.set('code_challenge_method', 'S256');
      if (provider.scope) url.searchParams.set('scope', provider.scope);
      return { ok: true, url: url.toString() };
    },

    /** The provider's redirect back: checks the state, exchanges the code and stores the sealed tokens. */
    async finish(params: URLSearchParams): Promise<CallbackResult> {
      const state = params.get('state');
      if (!state) return { ok: false, message: 'The provider sent the browser back without a state.' };
      const start = (await takeStart.get(sha256Hex(state))) as
        { person_id: string; connector_id: string; code_verifier: string; expires_at: number } | undefined;
      if (!start || start.expires_at <= clock.now()) {
        return {
          ok: false,
          message: 'This connection attempt is unknown or expired. Start it again from AgentDesk.',
        };
      }
      const provider = providers.get(start.connector_id);
      if (!provider?.as || !provider.client || !provider.auth) {
        return { ok: false, message: 'That connector is no longer available.' };
      }
      try {
        const callback = oauth.validateAuthResponse(provider.as, provider.client, params, state);
        const response = await oauth.authorizationCodeGrantRequest(
          provider.as,
          provider.client,
          provider.auth,
          callback,
          callbackUrl(),
          sealer.open(start.code_verifier),
          requestOptions(provider.as),
        );
        const tokens = await oauth.processAuthorizationCodeResponse(provider.as, provider.client, response);
        await upsertLink.run(
          start.person_id,
          provider.id,
          sealer.seal(tokens.access_token),
          tokens.refresh_token ? sealer.seal(tokens.refresh_token) : null,
          tokens.scope ?? null,
          clock.now(),
        );
        return { ok: true, name: provider.name };
      } catch (err) {
        const why =
          err instanceof oauth.AuthorizationResponseError || err instanceof oauth.ResponseBodyError
            ? err.error
            : (err as Error).message;
        deps.log(`connector ${provider.id}: not connected (${why})`);
        return { ok: false, message: `${provider.name} did not connect: ${why}.` };
      }
    },

    /**
     * Revokes at the provider (best effort: a provider that cannot be reached must not keep the link
     * alive here) and forgets the tokens. False when the connector id is unknown.
     */
    async disconnect(personId: string, connectorId: string): Promise<boolean> {
      const provider = providers.get(connectorId);
      if (!provider) return false;
      const row = (await linkOf.get(personId, connectorId)) as LinkRow | undefined;
      if (!row) return true;
      try {
        await revoke(provider, row);
      } catch (err) {
        deps.log(`connector ${connectorId}: revocation failed (${(err as Error).message})`);
      }
      await deleteLink.run(personId, connectorId);
      return true;
    },

    /** The stored access token of a connected provider (for tools that call it), or null. */
    async accessToken(personId: string, connectorId: string): Promise<string | null> {
      const row = (await linkOf.get(personId, connectorId)) as LinkRow | undefined;
      return row ? sealer.open(row.access_token_sealed) : null;
    },

    /** Account deletion: revoke every link of the person. */
    async disconnectAll(personId: string): Promise<void> {
      for (const id of await linkedIds(personId)) await this.disconnect(personId, id);
    },
  };
}

export type Connectors = ReturnType<typeof createConnectors>;
