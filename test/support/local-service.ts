import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenResponse } from '../../src/shared/api';
import { startService, type RunningService, type ServiceOptions } from '../../src/service/index';
import { storeConfig } from './test-store';

/** A local service on 127.0.0.1, an ephemeral port and a temp data folder. */
/**
 * Where the helpers send requests: a service started in this process (`RunningService`), or one running
 * elsewhere (`{url}`: another process), whose accounts must then already exist.
 */
export type ServiceEndpoint = { url: string } & Partial<Pick<RunningService, 'context'>>;

export interface TestService extends RunningService {
  dataDir: string;
  /** Closes the service and deletes its data folder. */
  cleanup(): Promise<void>;
}

export const DEFAULT_EMAIL = 'person@example.test';
export const DEFAULT_PASSWORD = 'correct horse battery staple';
export const DESKTOP_CLIENT_ID = 'agentdesk-desktop';

export async function startTestService(options: Partial<ServiceOptions> = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'agentdesk-service-')));
  const config = { ...(await storeConfig(dataDir)), ...options.config };
  const service = await startService({ port: 0, ...options, dataDir, config });
  return {
    ...service,
    dataDir,
    cleanup: async () => {
      await service.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Makes sure the account exists (directly in the store: creating accounts is not what is under test). */
export async function ensurePerson(
  service: Pick<RunningService, 'context'>,
  email = DEFAULT_EMAIL,
  password = DEFAULT_PASSWORD,
): Promise<{ id: string; email: string }> {
  const persons = service.context.identity.persons;
  const existing = await persons.findByEmail(email);
  if (existing) return existing;
  const created = await persons.create(email, password);
  if (!created.ok) throw new Error(`cannot create ${email}: ${created.code}`);
  return created.person;
}

export interface SignInOptions {
  scopes?: string[];
  email?: string;
  password?: string;
  clientId?: string;
  /** For clients other than the desktop one (whose default is a random loopback port). */
  redirectUri?: string;
  clientSecret?: string;
}

/** What the authorize leg produced: a fresh code and what the token request needs with it. */
export interface AuthorizedCode {
  code: string;
  verifier: string;
  redirectUri: string;
  clientId: string;
}

/**
 * The authorize leg over plain HTTP, as a browser does it: GET authorize → sign-in form (with its CSRF token)
 * → POST → consent (answered "allow") if the client is third party → redirect with `code` and `state`.
 */
export async function authorizeCode(
  service: ServiceEndpoint,
  options: SignInOptions = {},
): Promise<AuthorizedCode> {
  const email = options.email ?? DEFAULT_EMAIL;
  const password = options.password ?? DEFAULT_PASSWORD;
  if (service.context) await ensurePerson({ context: service.context }, email, password);
  const clientId = options.clientId ?? DESKTOP_CLIENT_ID;
  const redirectUri =
    options.redirectUri ?? `http://127.0.0.1:${40000 + Math.floor(Math.random() * 20000)}/callback`;
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: (options.scopes ?? ['profile', 'agents:read', 'agents:write', 'files']).join(' '),
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const browser = browserFor(service, email);
  const code = await browser.authorize(
    `/oauth2/authorize?${query.toString()}`,
    { email, password },
    redirectUri,
    state,
  );
  return { code, verifier, redirectUri, clientId };
}

/** `POST /oauth2/token` for an authorization code, raw (tests look at status and body). */
export function codeGrant(
  service: ServiceEndpoint,
  grant: AuthorizedCode,
  overrides: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${service.url}/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: grant.code,
      redirect_uri: grant.redirectUri,
      code_verifier: grant.verifier,
      client_id: grant.clientId,
      ...overrides,
    }),
  });
}

/** The whole authorization code + PKCE flow over plain HTTP; resolves to the token endpoint's body. */
export async function signIn(service: ServiceEndpoint, options: SignInOptions = {}): Promise<TokenResponse> {
  const grant = await authorizeCode(service, options);
  const response = await codeGrant(
    service,
    grant,
    options.clientSecret ? { client_secret: options.clientSecret } : {},
  );
  if (response.status !== 200)
    throw new Error(`token endpoint answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as TokenResponse;
}

// One signed-in browser per service and person, as a real browser keeps its session between sign-ins.
const browsers = new WeakMap<ServiceEndpoint, Map<string, CookieBrowser>>();
function browserFor(service: ServiceEndpoint, email: string): CookieBrowser {
  let byEmail = browsers.get(service);
  if (!byEmail) browsers.set(service, (byEmail = new Map()));
  let browser = byEmail.get(email);
  if (!browser) byEmail.set(email, (browser = new CookieBrowser(service.url)));
  return browser;
}

/** `POST /oauth2/token` with a refresh token, raw (tests look at status and body). */
export function refreshGrant(
  service: ServiceEndpoint,
  refreshToken: string,
  clientId = DESKTOP_CLIENT_ID,
): Promise<Response> {
  return fetch(`${service.url}/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: clientId,
    }),
  });
}

/**
 * A `gat_` token for `agentId`, made the way a person makes one: signed in on the service's account page,
 * pressing "Create agent token". The agent must belong to that person.
 */
export async function createAgentToken(
  service: ServiceEndpoint,
  agentId: string,
  account: { email?: string; password?: string } = {},
): Promise<string> {
  const email = account.email ?? DEFAULT_EMAIL;
  const password = account.password ?? DEFAULT_PASSWORD;
  if (service.context) await ensurePerson({ context: service.context }, email, password);
  const browser = browserFor(service, email);
  let accountPage = await browser.get('/account');
  if (accountPage.status !== 200) {
    await browser.signInPage(email, password);
    accountPage = await browser.get('/account');
  }
  const csrf = hiddenField(await accountPage.text(), 'csrf');
  const created = await browser.post(`/account/agents/${encodeURIComponent(agentId)}/tokens`, { csrf });
  const html = await created.text();
  const token = /<p class="token" id="agent-token">([^<]+)<\/p>/.exec(html)?.[1];
  if (created.status !== 200 || !token)
    throw new Error(`could not create an agent token (${created.status})`);
  return token;
}

/** The person's first agent id, enrolling it if needed (through GET /api/v2/me/agents). */
export async function firstAgentId(service: ServiceEndpoint, accessToken: string): Promise<string> {
  const response = await fetch(`${service.url}/api/v2/me/agents`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  const body = (await response.json()) as { agentes: { id: string }[] };
  const id = body.agentes[0]?.id;
  if (!id) throw new Error('no agent');
  return id;
}

/** Just enough of a browser for the service's own pages: a cookie jar and manual redirects. */
export class CookieBrowser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async get(path: string): Promise<Response> {
    return this.remember(await fetch(this.base + path, { redirect: 'manual', headers: this.headers() }));
  }

  async post(path: string, fields: Record<string, string>): Promise<Response> {
    return this.remember(
      await fetch(this.base + path, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...this.headers(), 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      }),
    );
  }

  /** Signs in through GET /signin and its form. */
  async signInPage(email: string, password: string): Promise<void> {
    const page = await this.get('/signin?next=%2Faccount');
    const html = await page.text();
    const response = await this.post('/signin', {
      csrf: hiddenField(html, 'csrf'),
      next: '/account',
      email,
      password,
    });
    if (response.status !== 303) throw new Error(`sign-in failed (${response.status})`);
  }

  /** Walks authorize → sign-in → (consent) and returns the code of the final redirect. */
  async authorize(
    path: string,
    account: { email: string; password: string },
    redirectUri: string,
    state: string,
  ): Promise<string> {
    let response = await this.get(path);
    for (let step = 0; step < 6; step++) {
      if (response.status === 302 || response.status === 303) {
        const location = response.headers.get('Location') ?? '';
        if (location.startsWith(redirectUri)) return codeFrom(location, state);
        response = await this.get(
          location.startsWith(this.base) ? location.slice(this.base.length) : location,
        );
        continue;
      }
      const html = await response.text();
      if (response.status !== 200)
        throw new Error(`authorize answered ${response.status}: ${html.slice(0, 200)}`);
      if (html.includes('action="/signin"')) {
        response = await this.post('/signin', {
          csrf: hiddenField(html, 'csrf'),
          next: hiddenField(html, 'next'),
          email: account.email,
          password: account.password,
        });
      } else if (html.includes('action="/oauth2/authorize"')) {
        response = await this.post('/oauth2/authorize', { ...hiddenFields(html), decision: 'allow' });
      } else {
        throw new Error(`unexpected page: ${html.slice(0, 200)}`);
      }
    }
    throw new Error('authorize flow did not finish');
  }

  private headers(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { Cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  private remember(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const equals = pair?.indexOf('=') ?? -1;
      if (pair && equals > 0) this.cookies.set(pair.slice(0, equals).trim(), pair.slice(equals + 1).trim());
    }
    return response;
  }
}

function codeFrom(location: string, state: string): string {
  const url = new URL(location);
  if (url.searchParams.get('state') !== state) throw new Error('state mismatch');
  const code = url.searchParams.get('code');
  if (!code) throw new Error(`authorize redirected with ${url.searchParams.get('error')}`);
  return code;
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Every `<input type="hidden" name=".." value="..">` of a page. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)) {
    fields[unescapeHtml(match[1] as string)] = unescapeHtml(match[2] as string);
  }
  return fields;
}

export function hiddenField(html: string, name: string): string {
  const value = hiddenFields(html)[name];
  if (value === undefined) throw new Error(`no hidden field ${name}`);
  return value;
}
