import { describe, expect, it } from 'vitest';
import { signIn } from '../../../support/local-service';
import { addAdmin, ADMIN, dataDir, ProxyClient, PUBLIC_URL, serviceCli, SLOW, startServer } from './harness';

// `npm run service -- --public-url https://agents.example.com`: the name it answers to, and the one its
// issuer and links carry, follow from that flag (or publicUrl in config.json). Loopback keeps working.
describe('--public-url', () => {
  it(
    'answers the public name and loopback, refuses other names, and names itself by the public URL',
    async () => {
      const service = await startServer(await dataDir(), ['--public-url', PUBLIC_URL]);
      expect(service.output()).toContain(`answering as ${PUBLIC_URL}`);
      const asPublic = new ProxyClient(service.url, { Host: 'agents.example.com' });

      const metadata = await asPublic.get('/.well-known/oauth-authorization-server');
      expect(metadata.status).toBe(200);
      expect(JSON.parse(metadata.body)).toMatchObject({
        issuer: PUBLIC_URL,
        authorization_endpoint: `${PUBLIC_URL}/oauth2/authorize`,
        token_endpoint: `${PUBLIC_URL}/oauth2/token`,
      });
      expect(metadata.headers['strict-transport-security']).toBe('max-age=31536000');
      const yaml = await asPublic.get('/openapi.yaml');
      expect(yaml.body).toMatch(/servers:\s+- url: https:\/\/agents\.example\.com\s/);

      for (const host of ['agents.example.com:443', 'AGENTS.example.com', `127.0.0.1:${service.port}`]) {
        const answer = await new ProxyClient(service.url, { Host: host }).get('/oauth2/proveedores');
        expect(answer.status, host).toBe(200);
      }
      // Asked by its loopback name, it still names itself by the public URL: links must work from outside.
      const local = await new ProxyClient(service.url).get('/.well-known/oauth-authorization-server');
      expect(JSON.parse(local.body)).toMatchObject({ issuer: PUBLIC_URL });

      for (const host of [
        'evil.example',
        'agents.example.com:8443',
        'agents.example.com.evil.example',
        '127.0.0.1',
      ]) {
        const answer = await new ProxyClient(service.url, { Host: host }).get('/oauth2/proveedores');
        expect(answer.status, host).toBe(421);
        expect(JSON.parse(answer.body)).toMatchObject({ error: 'host_no_permitido' });
        expect(JSON.parse(answer.body).detalle).toContain('agents.example.com');
      }
      // An absolute-form target must name it too.
      const absolute = await asPublic.get('http://evil.example/oauth2/proveedores');
      expect(absolute.status).toBe(421);
      // Pages served under the public name may call it from the browser; other sites may not.
      expect((await asPublic.get('/oauth2/proveedores', { Origin: PUBLIC_URL })).status).toBe(200);
      expect((await asPublic.get('/oauth2/proveedores', { Origin: 'https://evil.example' })).status).toBe(
        403,
      );
    },
    SLOW,
  );

  it(
    'signs library file links with the public URL, and they serve the file under that name',
    async () => {
      const data = await dataDir();
      await addAdmin(data);
      const service = await startServer(data, ['--public-url', PUBLIC_URL]);
      const { access_token } = await signIn(service, ADMIN);
      const uploaded = await fetch(`${service.url}/api/v2/me/files?nombre=notes.txt`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'text/plain' },
        body: 'from the server',
      });
      expect(uploaded.status).toBe(200);
      const { url } = (await uploaded.json()) as { url: string };
      expect(url).toMatch(/^https:\/\/agents\.example\.com\/files\/[\w-]+\?exp=\d+&sig=[\w-]+$/);
      const { pathname, search } = new URL(url);
      const served = await new ProxyClient(service.url, { Host: 'agents.example.com' }).get(
        pathname + search,
      );
      expect(served.status).toBe(200);
      expect(served.body).toBe('from the server');
    },
    SLOW,
  );

  it(
    'takes publicUrl from config.json, and stays loopback-only without it',
    async () => {
      const configured = await startServer(await dataDir({ publicUrl: 'https://desk.example.org:8443' }));
      const named = await new ProxyClient(configured.url, { Host: 'desk.example.org:8443' }).get(
        '/.well-known/oauth-authorization-server',
      );
      expect(named.status).toBe(200);
      expect(JSON.parse(named.body)).toMatchObject({ issuer: 'https://desk.example.org:8443' });

      const plain = await startServer(await dataDir());
      expect(plain.output()).not.toContain('answering as');
      const loopback = await new ProxyClient(plain.url).get('/.well-known/oauth-authorization-server');
      expect(loopback.headers['strict-transport-security']).toBeUndefined();
      expect(JSON.parse(loopback.body)).toMatchObject({ issuer: `http://127.0.0.1:${plain.port}` });
      const foreign = await new ProxyClient(plain.url, { Host: 'agents.example.com' }).get(
        '/oauth2/proveedores',
      );
      expect(foreign.status).toBe(421);
    },
    SLOW,
  );

  it(
    'refuses a plain-http public URL unless it is loopback, and a URL with a path, with exit 1',
    async () => {
      const data = await dataDir();
      for (const url of [
        'http://agents.example.com',
        'http://192.168.1.20:8787',
        'ftp://agents.example.com',
        'https://agents.example.com/desk',
      ]) {
        const refused = await serviceCli(['--port', '0', '--data', data, '--public-url', url]);
        expect(refused.code, url).toBe(1);
        expect(refused.stdout, url).not.toContain('listening on');
        const error = JSON.parse(refused.stderr.trim().split('\n').pop()!) as {
          error: string;
          detalle: string;
        };
        expect(error.error, url).toBe('config_invalid');
        expect(error.detalle, url).toMatch(/publicUrl/);
      }
      const badProxy = await serviceCli([
        '--port',
        '0',
        '--data',
        data,
        '--trusted-proxies',
        'proxy.example',
      ]);
      expect(badProxy.code).toBe(1);
      expect(JSON.parse(badProxy.stderr)).toMatchObject({
        error: 'config_invalid',
        detalle: expect.stringContaining('trustedProxies'),
      });
      const fromFile = await serviceCli([
        '--port',
        '0',
        '--data',
        await dataDir({ publicUrl: 'http://agents.example.com' }),
      ]);
      expect(fromFile.code).toBe(1);
      expect(fromFile.stderr).toContain('plain http');

      const loopback = await startServer(await dataDir(), ['--public-url', 'http://localhost:9']);
      const answer = await new ProxyClient(loopback.url, { Host: 'localhost:9' }).get(
        '/.well-known/oauth-authorization-server',
      );
      expect(JSON.parse(answer.body)).toMatchObject({ issuer: 'http://localhost:9' });
    },
    SLOW,
  );
});
