import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAgentId, signIn, startTestService, type TestService } from '../../../support/local-service';
import { rawExchange, statusCodes } from './raw-socket';

// Odd encodings in a workspace path (`/api/v2/agents/{id}/files/{path}`). The spec's answer for a bad path is
// 400 "invalid path"; escapes that are not UTF-8 (an overlong `..`, a lone byte) and control characters used
// to miss the route and come back 404, as if the agent had no such route. Another person's agent stays 404.
let service: TestService;
let token: string;
let agentId: string;
let foreignAgent: string;

beforeAll(async () => {
  service = await startTestService();
  token = (await signIn(service)).access_token;
  agentId = await firstAgentId(service, token);
  const other = await signIn(service, { email: 'other@example.test' });
  foreignAgent = await firstAgentId(service, other.access_token);
}, 60_000);
afterAll(() => service.cleanup());

function send(method: string, agent: string, path: string, bearer: string | null): Promise<string> {
  const body = method === 'PUT' ? 'Content-Type: application/octet-stream\r\nContent-Length: 1\r\n' : '';
  return rawExchange(
    service.url,
    `${method} /api/v2/agents/${agent}/files/${path} HTTP/1.1\r\nHost: 127.0.0.1:${service.port}\r\n` +
      `${bearer ? `Authorization: Bearer ${bearer}\r\n` : ''}${body}Connection: close\r\n\r\n${method === 'PUT' ? 'x' : ''}`,
  );
}

const ODD = ['%c0%ae%c0%ae/x', 'a%ffb', 'a%E0%A4%A', 'a%0Ab', 'a%0Db', 'a%7Fb'];

describe('a workspace path that is not valid UTF-8 or holds control characters', () => {
  it.each(ODD.flatMap((path) => ['GET', 'PUT', 'DELETE'].map((method) => [method, path] as const)))(
    '%s …/files/%s → 400 ruta_invalida',
    async (method, path) => {
      const answer = await send(method, agentId, path, token);
      expect(statusCodes(answer)).toEqual([400]);
      expect(answer).toContain('"error":"ruta_invalida"');
    },
  );

  it('nothing was written', async () => {
    const listing = await fetch(`${service.url}/api/v2/agents/${agentId}/files/`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(((await listing.json()) as { files: unknown[] }).files).toEqual([]);
  });

  it('on another person’s agent it is still 404, and without a token 401', async () => {
    for (const path of ODD) {
      expect(statusCodes(await send('PUT', foreignAgent, path, token)), path).toEqual([404]);
      expect(statusCodes(await send('PUT', agentId, path, null)), path).toEqual([401]);
    }
  });
});

describe('Unicode forms of one name', () => {
  it('NFD and NFC name the same file (stored NFC)', async () => {
    const put = await fetch(`${service.url}/api/v2/agents/${agentId}/files/cafe%CC%81.txt`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
      body: 'nfd',
    });
    expect(await put.json()).toMatchObject({ path: 'caf\u00e9.txt' });
    const listing = await fetch(`${service.url}/api/v2/agents/${agentId}/files/caf%C3%A9.txt`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(listing.status).toBe(200);
    expect(((await listing.json()) as { files: { path: string }[] }).files.map((f) => f.path)).toEqual([
      'caf\u00e9.txt',
    ]);
  });
});
