import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../agent-config/raw-http';
import { startTestService, type TestService } from '../../../support/local-service';

// DNS rebinding: a page at http://evil.example:<port> whose name now resolves to 127.0.0.1 reaches the
// service with its own name in Host. The service must refuse it everywhere, even before any account exists.
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.cleanup());

const PATHS = [
  '/',
  '/account',
  '/signin',
  '/first-run',
  '/openapi.yaml',
  '/.well-known/oauth-authorization-server',
  '/oauth2/authorize?client_id=agentdesk-desktop',
  '/oauth2/proveedores',
  '/api/v2/me/agents',
];

describe('Host header', () => {
  it.each(PATHS)('refuses a foreign host name on %s with 421 in the error shape', async (path) => {
    const answer = await rawRequest(service.url, 'GET', path, { Host: `evil.example:${service.port}` });
    expect(answer.status).toBe(421);
    expect(JSON.parse(answer.body)).toEqual({ error: 'host_no_permitido', detalle: expect.any(String) });
  });

  it('refuses a loopback name with another port, and a missing port', async () => {
    for (const host of [
      `127.0.0.1:${service.port + 1}`,
      '127.0.0.1',
      'localhost',
      `127.0.0.2:${service.port}`,
    ]) {
      const answer = await rawRequest(service.url, 'GET', '/openapi.yaml', { Host: host });
      expect(answer.status, host).toBe(421);
    }
  });

  it.each(['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]'])('answers %s with its port', async (name) => {
    const answer = await rawRequest(service.url, 'GET', '/oauth2/proveedores', {
      Host: `${name}:${service.port}`,
    });
    expect(answer.status).toBe(200);
  });

  it('lets no foreign page create the first account', async () => {
    const form = new URLSearchParams({
      email: 'evil@example.test',
      password: 'abcdefgh1',
      password2: 'abcdefgh1',
    });
    const body = new TextEncoder().encode(form.toString());
    const answer = await rawRequest(
      service.url,
      'POST',
      '/first-run',
      { Host: `evil.example:${service.port}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    );
    expect(answer.status).toBe(421);
    expect(await service.context.identity.persons.count()).toBe(0);
  });
});

describe('absolute URLs come from the configuration, not the request', () => {
  it('keeps the issuer and the OpenAPI server at the service address when asked as localhost', async () => {
    const host = { Host: `localhost:${service.port}` };
    const metadata = await rawRequest(service.url, 'GET', '/.well-known/oauth-authorization-server', host);
    const issued = JSON.parse(metadata.body) as { issuer: string; token_endpoint: string };
    expect(issued.issuer).toBe(service.url);
    expect(issued.token_endpoint).toBe(`${service.url}/oauth2/token`);
    const yaml = await rawRequest(service.url, 'GET', '/openapi.yaml', host);
    expect(yaml.body).toMatch(new RegExp(`servers:\\s+- url: ${service.url.replace(/\./g, '\\.')}\\s`));
    expect(yaml.body).not.toContain(`url: http://localhost`);
  });
});
