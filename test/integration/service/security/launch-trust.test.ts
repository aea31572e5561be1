import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppService, type AppService } from '../../../../src/service/index';
import { tokenFamilies } from '../../../support/store-query';
import { storeConfig } from '../../../support/test-store';
import {
  CookieBrowser,
  hiddenField,
  startTestService,
  type TestService,
} from '../../../support/local-service';

// The trust path of "This computer" (docs/security.md, "The app's own service"): the app that started the
// service in its own process signs in without a password by presenting its launch secret. These tests hold
// the refusals: a service without a secret, a wrong one, every HTTP way a page or another process could try,
// and the secret and the tokens never reaching argv, the environment or a file.

const SECRET = randomBytes(32).toString('base64url');
let app: AppService;
let dataDir: string;
let alone: TestService;

beforeAll(async () => {
  alone = await startTestService();
  const fresh = await startTestService();
  dataDir = fresh.dataDir;
  await fresh.close();
  app = await startAppService({ dataDir, port: 0, launchSecret: SECRET, config: await storeConfig(dataDir) });
});
afterAll(async () => {
  await app.close();
  await alone.cleanup();
});

const bearer = (url: string, token: string) =>
  fetch(`${url}/api/v2/me/agents`, { headers: { Authorization: `Bearer ${token}` } });

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('the app that started the service', () => {
  it('signs in with no password as the computer’s owner, with tokens that work and refresh', async () => {
    const answer = await app.signInApp('profile agents:read agents:write files');
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.tokens.scope.split(' ').sort()).toEqual([
      'agents:read',
      'agents:write',
      'files',
      'profile',
    ]);
    const listed = await bearer(app.url, answer.tokens.access_token);
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { usuario: { email: string }; agentes: { nombre: string }[] };
    expect(body.usuario.email).toMatch(/@this-computer$/);
    expect(body.agentes.map((a) => a.nombre)).toEqual(['Assistant']);
    // The refresh token is an ordinary one of the desktop client.
    const refreshed = await fetch(`${app.url}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'agentdesk-desktop',
        refresh_token: answer.tokens.refresh_token,
      }),
    });
    expect(refreshed.status).toBe(200);
  });

  it('signs in as the same owner every launch, never making a second account', async () => {
    const first = await app.signInApp('profile');
    const second = await app.signInApp('profile');
    expect(first.ok && second.ok).toBe(true);
    expect(await app.context.identity.persons.count()).toBe(1);
  });

  it('gives the owner no password: no form, no password signs in as them', async () => {
    const owner = (await app.context.identity.persons.first())!;
    for (const password of ['', ' ', SECRET, 'a long enough password'])
      expect(await app.context.identity.persons.authenticate(owner.email, password)).toBeNull();
    const browser = new CookieBrowser(app.url);
    const page = await (await browser.get('/signin?next=%2Faccount')).text();
    const answer = await browser.post('/signin', {
      csrf: hiddenField(page, 'csrf'),
      next: '/account',
      email: owner.email,
      password: SECRET,
    });
    expect(answer.status).toBe(401);
    expect((await browser.get('/account')).status).toBe(302);
  });
});

describe('everything else is refused', () => {
  it('refuses a wrong, empty, truncated or padded secret', async () => {
    const wrongs = [
      '',
      SECRET.slice(1),
      `${SECRET}x`,
      SECRET.toUpperCase(),
      randomBytes(32).toString('base64url'),
    ];
    for (const wrong of wrongs)
      expect(await app.signInLaunchingApp(wrong, 'profile')).toMatchObject({ ok: false });
    expect(await app.signInLaunchingApp(undefined as unknown as string, 'profile')).toMatchObject({
      ok: false,
    });
  });

  it('has no trust path on a service started alone (npm run service): not even the empty secret', async () => {
    expect(await alone.signInLaunchingApp('', 'profile')).toEqual({
      ok: false,
      reason: 'this service was not started by the app',
    });
    expect(await alone.signInLaunchingApp(SECRET, 'profile')).toMatchObject({ ok: false });
    expect(await alone.context.identity.persons.count()).toBe(0);
  });

  it('offers no HTTP way in without a password, whatever a page or a process sends', async () => {
    const families = () => tokenFamilies(app);
    const before = await families();
    const grants: Record<string, string>[] = [
      { grant_type: 'client_credentials', client_id: 'agentdesk-desktop' },
      {
        grant_type: 'password',
        client_id: 'agentdesk-desktop',
        username: 'me@this-computer',
        password: SECRET,
      },
      { grant_type: 'urn:agentdesk:launch', client_id: 'agentdesk-desktop', launch_secret: SECRET },
      {
        grant_type: 'authorization_code',
        client_id: 'agentdesk-desktop',
        code: SECRET,
        code_verifier: SECRET,
      },
    ];
    for (const grant of grants) {
      const answer = await fetch(`${app.url}/oauth2/token`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${SECRET}`, 'X-Launch-Secret': SECRET },
        body: new URLSearchParams(grant),
      });
      expect(answer.status, grant.grant_type).toBeGreaterThanOrEqual(400);
      expect(await answer.text()).not.toContain('access_token');
    }
    // The secret is no bearer either.
    expect((await bearer(app.url, SECRET)).status).toBe(401);
    // A page in the person's browser starting the desktop client's sign-in is asked for a password.
    const page = await new CookieBrowser(app.url).get(
      `/oauth2/authorize?response_type=code&client_id=agentdesk-desktop&redirect_uri=${encodeURIComponent('http://127.0.0.1:45999/callback')}&scope=profile&state=s&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('Location')).toBeNull();
    expect(await page.text()).toContain('action="/signin"');
    expect(await families()).toBe(before);
  });

  it('makes no first account through the first-run page of the app’s service: only the app’s trust does', async () => {
    const fresh = await startTestService();
    const dir = fresh.dataDir;
    await fresh.close();
    const racing = await startAppService({
      dataDir: dir,
      port: 0,
      launchSecret: SECRET,
      config: await storeConfig(dir),
    });
    try {
      // Another user races the app to its brand-new service, before the app has signed in.
      const browser = new CookieBrowser(racing.url);
      const page = await browser.get('/first-run?next=%2Faccount');
      expect(page.status).toBe(403);
      const post = await browser.post('/first-run', {
        csrf: 'x',
        next: '/account',
        email: 'intruder@example.test',
        password: 'a long enough password',
        password2: 'a long enough password',
      });
      expect(post.status).toBe(403);
      expect(await racing.context.identity.persons.count()).toBe(0);
      const answer = await racing.signInApp('profile');
      expect(answer.ok).toBe(true);
      expect((await racing.context.identity.persons.first())?.email).toMatch(/@this-computer$/);
    } finally {
      await racing.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps the secret out of argv, the environment and every file; tokens are never written in plain text', async () => {
    const answer = await app.signInApp('profile');
    if (!answer.ok) throw new Error(answer.reason);
    const readable = [
      await readFile('/proc/self/cmdline', 'utf8'),
      await readFile('/proc/self/environ', 'utf8'),
      JSON.stringify(process.argv),
      JSON.stringify(process.env),
    ];
    for (const text of readable) expect(text).not.toContain(SECRET);
    for (const file of await filesUnder(dataDir)) {
      const bytes = await readFile(file);
      for (const secret of [SECRET, answer.tokens.access_token, answer.tokens.refresh_token])
        expect(bytes.includes(Buffer.from(secret)), `${file} holds a secret`).toBe(false);
    }
    // Another local user cannot even look inside the folder.
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
  });
});
