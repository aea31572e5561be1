import { describe, expect, it } from 'vitest';
import { hiddenField } from '../../../support/local-service';
import { addAdmin, ADMIN, dataDir, ProxyClient, PUBLIC_URL, serviceCli, SLOW, startServer } from './harness';

const publicName = { Host: 'agents.example.com' };

describe('accounts on a public server', () => {
  it(
    'lets no visitor create an account, even the first one; the admin made by user add signs in',
    async () => {
      const data = await dataDir();
      const empty = await startServer(data, ['--public-url', PUBLIC_URL]);
      const visitor = new ProxyClient(empty.url, publicName);
      const signin = await visitor.get('/signin');
      expect(signin.status).toBe(303);
      const firstRun = await visitor.get(signin.headers.location as string);
      expect(firstRun.status).toBe(403);
      expect(firstRun.body).toContain('invitation');
      expect(firstRun.body).not.toContain('<form');
      const forced = await visitor.post('/first-run', {
        csrf: 'x',
        email: 'intruder@example.test',
        password: 'abcdefgh1',
        password2: 'abcdefgh1',
      });
      expect(forced.status).toBe(403);
      await empty.kill('SIGTERM');

      await addAdmin(data);
      const service = await startServer(data, ['--public-url', PUBLIC_URL]);
      expect(
        (await new ProxyClient(service.url, publicName).signIn(ADMIN.email, ADMIN.password)).status,
      ).toBe(303);
      const intruder = await new ProxyClient(service.url, publicName).signIn(
        'intruder@example.test',
        'abcdefgh1',
      );
      expect(intruder.status).toBe(401);
    },
    SLOW,
  );

  it(
    'makes an account through an invite add link, once; the link names the public URL',
    async () => {
      const data = await dataDir({ publicUrl: PUBLIC_URL });
      await addAdmin(data);
      const made = await serviceCli(['invite', 'add', '--email', 'bea@example.test', '--data', data]);
      expect(made.code).toBe(0);
      const invite = JSON.parse(made.stdout) as { email: string; url: string; expires_at: string };
      expect(invite.email).toBe('bea@example.test');
      expect(invite.url).toMatch(/^https:\/\/agents\.example\.com\/invite\?code=inv_[\w-]+$/);
      expect(Date.parse(invite.expires_at) - Date.now()).toBeGreaterThan(6 * 24 * 3600_000);
      const taken = await serviceCli(['invite', 'add', '--email', ADMIN.email, '--data', data]);
      expect(taken.code).toBe(1);
      expect(JSON.parse(taken.stderr)).toMatchObject({ error: 'email_taken' });

      const service = await startServer(data);
      const { pathname, search } = new URL(invite.url);
      const browser = new ProxyClient(service.url, publicName);
      const page = await browser.get(pathname + search);
      expect(page.status).toBe(200);
      expect(page.body).toContain('bea@example.test');
      const fields = { csrf: hiddenField(page.body, 'csrf'), code: hiddenField(page.body, 'code') };

      const differ = await browser.post('/invite', {
        ...fields,
        password: 'bea password 1',
        password2: 'other',
      });
      expect(differ.status).toBe(400);
      expect(differ.body).toContain('The two passwords differ.');
      const created = await browser.post('/invite', {
        ...fields,
        password: 'bea password 1',
        password2: 'bea password 1',
      });
      expect(created.status).toBe(303);
      expect(created.headers.location).toBe('/account');
      const account = await browser.get('/account');
      expect(account.status).toBe(200);
      expect(account.body).toContain('bea@example.test');

      const again = await new ProxyClient(service.url, publicName).get(pathname + search);
      expect(again.status).toBe(404);
      const forged = await new ProxyClient(service.url, publicName).get('/invite?code=inv_forged');
      expect(forged.status).toBe(404);
      expect(
        (await new ProxyClient(service.url, publicName).signIn('bea@example.test', 'bea password 1')).status,
      ).toBe(303);
    },
    SLOW,
  );

  it(
    'refuses invite add without a public URL to put in the link',
    async () => {
      const refused = await serviceCli([
        'invite',
        'add',
        '--email',
        'bea@example.test',
        '--data',
        await dataDir(),
      ]);
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stderr)).toMatchObject({
        error: 'usage',
        detalle: expect.stringContaining('publicUrl'),
      });
    },
    SLOW,
  );

  it(
    'refuses --days that is not a whole number of days from 1 to 365',
    async () => {
      const data = await dataDir({ publicUrl: PUBLIC_URL });
      for (const days of ['0.5', '-1']) {
        const refused = await serviceCli([
          'invite',
          'add',
          '--email',
          'bea@example.test',
          `--days=${days}`,
          '--data',
          data,
        ]);
        expect(refused.code, days).toBe(1);
        expect(JSON.parse(refused.stderr), days).toEqual({
          error: 'usage',
          detalle: `--days is a whole number of days from 1 to 365; ${JSON.stringify(days)} is not.`,
        });
      }
      const made = await serviceCli([
        'invite',
        'add',
        '--email',
        'bea@example.test',
        '--days',
        '2',
        '--data',
        data,
      ]);
      expect(made.code).toBe(0);
    },
    SLOW,
  );
});

describe('session cookies', () => {
  it(
    'are __Host- prefixed, Secure, HttpOnly and SameSite=Lax over https, and port-named without Secure on loopback',
    async () => {
      const data = await dataDir();
      await addAdmin(data);
      const secure = await startServer(data, ['--public-url', PUBLIC_URL]);
      const browser = new ProxyClient(secure.url, publicName);
      expect((await browser.signIn(ADMIN.email, ADMIN.password)).status).toBe(303);
      expect(browser.setCookies.length).toBeGreaterThanOrEqual(2);
      for (const line of browser.setCookies) {
        const [pair = '', ...attributes] = line.split(/;\s*/);
        expect(pair).toMatch(/^__Host-agentdesk_session=[\w-]{20,}$/);
        expect(attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']));
        expect(attributes.some((a) => /^domain=/i.test(a))).toBe(false);
      }
      await secure.kill('SIGTERM');

      const loopback = await startServer(data);
      const local = new ProxyClient(loopback.url);
      expect((await local.signIn(ADMIN.email, ADMIN.password)).status).toBe(303);
      for (const line of local.setCookies) {
        expect(line).toMatch(new RegExp(`^agentdesk_session_${loopback.port}=`));
        expect(line).toContain('HttpOnly');
        expect(line).toContain('SameSite=Lax');
        expect(line).not.toContain('Secure');
      }
    },
    SLOW,
  );
});
