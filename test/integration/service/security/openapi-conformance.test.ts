import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { routes } from '../../../../src/shared/api';
import { publishedOpenApi, type ExpectAsDocumented } from '../../../support/openapi-answers';
import { routeCallArbitrary, sendRouteCall, type KnownIds } from '../../../support/route-call';
import { startHarness, type Harness } from '../agent-config/harness';

// Every route called with good and bad input (generated from its schemas), with and without a token, against
// the real service; each live answer is checked against the /openapi.yaml that same service publishes: the
// status is listed for the operation, the content type is one it lists, and a JSON body fits its schema.
// openapi-guard-answers.test.ts does the same for the answers of the service's guards.

const SAMPLES = 8;
let h: Harness;
let known: KnownIds;
let expectAsDocumented: ExpectAsDocumented;

beforeAll(async () => {
  h = await startHarness();
  const created = await h.call(`/api/v2/me/agents/${h.agentId}/conversations`, { method: 'POST' });
  known = { agentId: h.agentId, sessionId: ((await created.json()) as { id: string }).id };
  expectAsDocumented = await publishedOpenApi(h.service.url);
}, 60_000);
afterAll(() => h?.close());

// DELETE /api/v2/me deletes the account the other calls run on; account.test.ts covers its answers.
const checked = routes.filter((route) => !(route.method === 'DELETE' && route.path === '/api/v2/me'));

describe('/openapi.yaml describes every answer of the service', { timeout: 60_000 }, () => {
  it.each(checked.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s',
    async (_, route) => {
      const calls = fc.sample(routeCallArbitrary(route, known), { numRuns: SAMPLES, seed: 7 });
      for (const [i, call] of calls.entries()) {
        // Every other call without a token: the 401 (or a public route's answer) is documented too.
        const token = route.credential === 'none' || i % 4 === 3 ? undefined : h.accessToken;
        await expectAsDocumented(route, await sendRouteCall(h.service.url, route, call, token));
      }
    },
  );
});
