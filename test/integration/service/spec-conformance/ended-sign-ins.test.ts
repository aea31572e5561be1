import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteSpec } from '../../../../src/shared/api';
import { agentParamOf } from '../../../../src/service/auth/bearer';
import {
  CookieBrowser,
  DEFAULT_EMAIL,
  DEFAULT_PASSWORD,
  createAgentToken,
  hiddenField,
  firstAgentId,
  signIn,
  startTestService,
  type TestService,
} from '../../../support/local-service';

// The bearer matrix covers missing, expired and wrong-scope tokens; these are tokens that were good and whose
// sign-in then ended: signed out (refresh token revoked), the access token itself revoked, an agent token
// revoked on the account page, and every token of an account that was deleted. On every /api/v2 route of the
// table each one is the spec's 401 ("no token or expired"), never a 403, 404 or a handler's answer.
const apiRoutes = routes.filter((route) => route.path.startsWith('/api/v2/'));
let service: TestService;
let agentId: string;
const ended = new Map<string, string>();

beforeAll(async () => {
  service = await startTestService();
  const live = await signIn(service);
  agentId = await firstAgentId(service, live.access_token);

  const signedOut = await signIn(service);
  await revoke(signedOut.refresh_token);
  ended.set('signed out (refresh token revoked)', signedOut.access_token);

  const accessRevoked = await signIn(service);
  await revoke(accessRevoked.access_token);
  ended.set('access token revoked', accessRevoked.access_token);

  // Revoked the way a person does it: the account page's Revoke button.
  const agentToken = await createAgentToken(service, agentId);
  expect(
    (
      await fetch(`${service.url}/api/v2/agents/${agentId}`, {
        headers: { Authorization: `Bearer ${agentToken}` },
      })
    ).status,
  ).toBe(200);
  const [row] = await service.context.identity.agentTokens.list(agentId);
  if (!row) throw new Error('the agent token was not listed');
  const browser = new CookieBrowser(service.url);
  await browser.signInPage(DEFAULT_EMAIL, DEFAULT_PASSWORD);
  const csrf = hiddenField(await (await browser.get('/account')).text(), 'csrf');
  const revoked = await browser.post(`/account/tokens/${row.id}/revoke`, { csrf });
  if (revoked.status !== 303) throw new Error(`revoking on the account page answered ${revoked.status}`);
  ended.set('agent token revoked', agentToken);

  const doomed = await signIn(service, { email: 'leaving@example.test' });
  const doomedAgent = await firstAgentId(service, doomed.access_token);
  const doomedAgentToken = await createAgentToken(service, doomedAgent, { email: 'leaving@example.test' });
  const deleted = await fetch(`${service.url}/api/v2/me`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${doomed.access_token}` },
  });
  if (deleted.status !== 200) throw new Error(`account deletion answered ${deleted.status}`);
  ended.set('account deleted (OAuth)', doomed.access_token);
  ended.set('account deleted (agent token)', doomedAgentToken);
}, 60_000);
afterAll(() => service.cleanup());

async function revoke(token: string): Promise<void> {
  const answer = await fetch(`${service.url}/oauth2/revoke`, {
    method: 'POST',
    body: new URLSearchParams({ token, client_id: 'agentdesk-desktop' }),
  });
  if (answer.status !== 200) throw new Error(`revoke answered ${answer.status}`);
}

function pathFor(route: RouteSpec): string {
  const agentParam = agentParamOf(route);
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === agentParam ? agentId : name === 'path' ? 'notes.md' : name === 'slug' ? 'a-skill' : 'item-1',
  );
}

describe.each([
  'signed out (refresh token revoked)',
  'access token revoked',
  'agent token revoked',
  'account deleted (OAuth)',
  'account deleted (agent token)',
])('%s', (label) => {
  it('is 401 with a Bearer challenge on every /api/v2 route', async () => {
    const token = ended.get(label)!;
    for (const route of apiRoutes) {
      const answer = await fetch(service.url + pathFor(route), {
        method: route.method,
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(answer.status, `${route.method} ${route.path}`).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
      await answer.body?.cancel();
    }
  });
});
