import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock } from '../../../../src/service/index';
import {
  CookieBrowser,
  DEFAULT_EMAIL,
  DEFAULT_PASSWORD,
  ensurePerson,
  hiddenField,
  hiddenFields,
  startTestService,
  type TestService,
} from '../../../support/local-service';

const clock = createTestClock();
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ clock });
  await ensurePerson(service);
});
afterAll(() => service.cleanup());

function authorizePath(
  redirectUri = `http://127.0.0.1:${41000 + Math.floor(Math.random() * 9000)}/callback`,
) {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: 'agentdesk-desktop',
    redirect_uri: redirectUri,
    scope: 'profile agents:read agents:write files',
    state: randomBytes(8).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  return { path: `/oauth2/authorize?${query.toString()}`, redirectUri };
}

async function signedInBrowser(): Promise<CookieBrowser> {
  const browser = new CookieBrowser(service.url);
  await browser.signInPage(DEFAULT_EMAIL, DEFAULT_PASSWORD);
  return browser;
}

describe('loopback authorization of the desktop client (RFC 8252 §8.6)', () => {
  it('asks an already signed-in person to click before any code leaves', async () => {
    const browser = await signedInBrowser();
    const { path, redirectUri } = authorizePath();
    const page = await browser.get(path);
    expect(page.status).toBe(200);
    expect(page.headers.get('location')).toBeNull();
    const html = await page.text();
    expect(html).toContain(`Continue to AgentDesk as ${DEFAULT_EMAIL}`);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const fields = hiddenFields(html);
    const forged = await browser.post('/oauth2/authorize', { ...fields, csrf: 'forged', decision: 'allow' });
    expect(forged.status).toBe(400);

    const clicked = await browser.post('/oauth2/authorize', { ...fields, decision: 'allow' });
    expect(clicked.status).toBe(302);
    const location = new URL(clicked.headers.get('location') ?? '');
    expect(location.href.startsWith(redirectUri)).toBe(true);
    expect(location.searchParams.get('code')).toBeTruthy();
  });

  it('sends the person who cancels back with access_denied', async () => {
    const browser = await signedInBrowser();
    const html = await (await browser.get(authorizePath().path)).text();
    const answer = await browser.post('/oauth2/authorize', { ...hiddenFields(html), decision: 'deny' });
    expect(new URL(answer.headers.get('location') ?? '').searchParams.get('error')).toBe('access_denied');
  });

  it('needs no second click right after the password was typed for this request, and only once', async () => {
    const browser = new CookieBrowser(service.url);
    const { path } = authorizePath();
    const form = await (await browser.get(path)).text();
    const signedIn = await browser.post('/signin', {
      csrf: hiddenField(form, 'csrf'),
      next: hiddenField(form, 'next'),
      email: DEFAULT_EMAIL,
      password: DEFAULT_PASSWORD,
    });
    expect(signedIn.status).toBe(303);
    const next = signedIn.headers.get('location') ?? '';
    const first = await browser.get(next);
    expect(first.status).toBe(302);
    expect(new URL(first.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy();
    // The same request again (a page replaying it) is back to needing the click.
    const again = await browser.get(next);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('Continue to AgentDesk as');
  });
});

// Each checked attempt costs a real scrypt: generous timeouts for a busy two-core machine.
describe('failed sign-ins slow down', { timeout: 90_000 }, () => {
  async function attempt(browser: CookieBrowser, email: string, password: string): Promise<Response> {
    const form = await (await browser.get('/signin')).text();
    return browser.post('/signin', { csrf: hiddenField(form, 'csrf'), next: '/account', email, password });
  }

  it('per account: after a few misses even the right password waits, then works once the delay passes', async () => {
    const email = 'throttled@example.test';
    await ensurePerson(service, email, DEFAULT_PASSWORD);
    const browser = new CookieBrowser(service.url);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await attempt(browser, email, `wrong ${i}`)).status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(6);
    expect(statuses.slice(-30).every((s) => s === 429)).toBe(true);

    const waiting = await attempt(browser, email, DEFAULT_PASSWORD);
    expect(waiting.status).toBe(429);
    const retryAfter = Number(waiting.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(await waiting.text()).toContain('Too many failed attempts');

    clock.advance(retryAfter * 1000);
    const right = await attempt(browser, email, DEFAULT_PASSWORD);
    expect(right.status).toBe(303);
  });

  it('per address: misses spread over many accounts slow down the next account too', async () => {
    clock.advance(25 * 3600_000);
    const victim = 'victim@example.test';
    await ensurePerson(service, victim, DEFAULT_PASSWORD);
    const browser = new CookieBrowser(service.url);
    let refused = 0;
    for (let i = 0; i < 22; i++) {
      const status = (await attempt(browser, `nobody${i}@example.test`, 'wrong password')).status;
      if (status === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);
    expect((await attempt(browser, victim, DEFAULT_PASSWORD)).status).toBe(429);
  });
});
