import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../../src/shared/api';
import { signIn } from '../../../support/local-service';
import { startHarness, type Harness } from '../agent-config/harness';
import {
  createOwnObjects,
  expectSafeAnswer,
  rawRequest,
  targetFor,
  type OwnIds,
} from './hostile-input-support';

// Another person, and tokens that are not (or no longer) good, on every /api/v2 route of the table, over real
// HTTP against the real service. The second person names the first one's agent, conversation, schedule and
// library file: 404 (the spec: "another person's agent gives 404, never 403"; a library DELETE answers its only
// body, `{deleted: false}`), and nothing of the first person's changes. Revoked, refresh-as-access, forged and
// malformed bearers: 401 in the spec's shape (text) with a `WWW-Authenticate: Bearer` challenge.

const apiRoutes = routes.filter((route) => route.path.startsWith('/api/v2/'));
const TITLE = 'Alice only';
let alice: Harness;
let aliceIds: OwnIds;
let bobToken: string;
let revoked: string;
let refreshToken: string;

beforeAll(async () => {
  alice = await startHarness();
  aliceIds = await createOwnObjects(alice, TITLE);
  await alice.call(`/api/v2/agents/${alice.agentId}/files/notes/today.md`, { method: 'PUT', body: 'kept' });
  bobToken = (await signIn(alice.service, { email: 'bob@example.test' })).access_token;
  const second = await signIn(alice.service);
  refreshToken = second.refresh_token ?? '';
  revoked = (await signIn(alice.service)).access_token;
  const revoke = await fetch(`${alice.service.url}/oauth2/revoke`, {
    method: 'POST',
    body: new URLSearchParams({ token: revoked, client_id: 'agentdesk-desktop' }),
  });
  expect(revoke.status).toBe(200);
}, 60_000);
afterAll(() => alice?.close());

// An engine place (`{motor}`) is the service's, not a person's object: who may set it (the owner only, 403
// `solo_propietario` for anyone else) is agent-programs.test.ts's.
const personal = apiRoutes.filter(
  (route) => route.path.includes('{') && route.method !== 'GET' && route.operationId !== 'setAgentProgram',
);
const readable = apiRoutes.filter((route) => route.path.includes('{') && route.method === 'GET');

describe('another person names my objects', { timeout: 60_000 }, () => {
  it.each([...readable, ...personal].map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s → 404',
    async (_, route) => {
      const kind = route.request.body?.kind;
      const answer = await rawRequest(alice.service.url, {
        method: route.method,
        target: targetFor(route, aliceIds),
        token: bobToken,
        ...(kind === 'json'
          ? { contentType: 'application/json', body: '{"title":"mine now","content":"hi"}' }
          : {}),
        ...(kind === 'octet-stream' ? { contentType: 'application/octet-stream', body: 'overwritten' } : {}),
      });
      if (route.operationId === 'deleteFile') {
        expectSafeAnswer(route, answer, alice.service.dataDir, 'Bob', [200]);
        expect(JSON.parse(answer.text)).toEqual({ deleted: false });
      } else {
        expectSafeAnswer(route, answer, alice.service.dataDir, 'Bob', [404]);
        expect(JSON.parse(answer.text)).toMatchObject({ error: 'not_found' });
      }
    },
  );

  it('and nothing of mine changed', async () => {
    const conversations = `/api/v2/me/agents/${alice.agentId}/conversations`;
    expect(await (await alice.call(conversations)).text()).toContain(TITLE);
    const schedule = await (await alice.call(`${conversations}/${aliceIds.sessionId}/schedule`)).text();
    expect(schedule).toContain(aliceIds.scheduleId);
    expect((await alice.call(`/api/v2/me/files/${aliceIds.fileId}`)).status).toBe(200);
    const file = await alice.call(`/api/v2/agents/${alice.agentId}/files/notes/today.md`, {
      headers: { Accept: 'application/octet-stream' },
    });
    expect(await file.text()).toBe('kept');
    const agent = (await (await alice.call(`/api/v2/agents/${alice.agentId}`)).json()) as { name: string };
    expect(agent.name).not.toBe('mine now');
  });
});

/** Authorization headers that carry no usable credential. */
function badBearers(): [string, string][] {
  return [
    ['a revoked access token', `Bearer ${revoked}`],
    ['a refresh token used as an access token', `Bearer ${refreshToken}`],
    ['a made-up token', 'Bearer not-a-real-token'],
    ['a forged agent token', 'Bearer gat_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['an unsigned JWT', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.'],
    ['an 8,000-character token', `Bearer ${'A'.repeat(8000)}`],
    ['two tokens', `Bearer ${alice.accessToken} ${alice.accessToken}`],
    ['an empty bearer', 'Bearer '],
    ['a token with a quote and a semicolon', `Bearer "x";drop table tokens`],
    ['another scheme', `Token ${alice.accessToken}`],
  ];
}

// The API's routes, and the lent tools' MCP server, which takes a bearer of its own.
const bearerRoutes = routes.filter(
  (route) => route.path.startsWith('/api/v2/') || route.path.startsWith('/gs-mcp/'),
);

describe(
  'bearers that are not good → 401 text with a WWW-Authenticate challenge',
  { timeout: 60_000 },
  () => {
    it.each(bearerRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
      '%s',
      async (_, route) => {
        for (const [what, authorization] of badBearers()) {
          const answer = await rawRequest(alice.service.url, {
            method: route.method,
            target: targetFor(route, aliceIds),
            headers: { Authorization: authorization },
          });
          expectSafeAnswer(route, answer, alice.service.dataDir, what, [401]);
          expect(String(answer.headers['content-type']), what).toMatch(/^text\/plain/);
          expect(String(answer.headers['www-authenticate']), what).toMatch(/^Bearer realm="agentdesk"/);
          expect(answer.text, what).not.toContain(alice.accessToken);
        }
      },
    );

    it('the person’s own token still works afterwards', async () => {
      expect((await alice.call('/api/v2/me/agents')).status).toBe(200);
    });
  },
);
