import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { routes } from '../../../../src/shared/api';
import {
  expectDocumentedAnswer,
  routeCallArbitrary,
  sendRouteCall,
  type KnownIds,
} from '../../../support/route-call';
import { startHarness, type Harness } from '../agent-config/harness';

// Every route of the contract, called with requests generated from its own zod schemas (valid-shaped values,
// values with a field broken, hostile strings, huge numbers, wrong types and wrong content types), against
// the real service: never a 500, and always a status, content type and body shape the route documents.
// DELETE /api/v2/me is left out: it deletes the very account the others run on (account.test.ts covers it).
// Bounded so the unit suite stays fast: at most RUNS requests or TIME_MS per route (restarts are slow).
const RUNS = 15;
const MIN_RUNS = 3;
const TIME_MS = 2500;
let h: Harness;
let known: KnownIds;
beforeAll(async () => {
  h = await startHarness();
  const created = await h.call(`/api/v2/me/agents/${h.agentId}/conversations`, { method: 'POST' });
  known = { agentId: h.agentId, sessionId: ((await created.json()) as { id: string }).id };
}, 60_000);
afterAll(() => h?.close());

const fuzzed = routes.filter((route) => !(route.method === 'DELETE' && route.path === '/api/v2/me'));

// A failure names the request; FUZZ_SEED=<seed> (printed below) replays the same requests.
const SEED = Number(process.env['FUZZ_SEED'] ?? Date.now() % 2 ** 31);

describe(`schema-derived fuzz of every route (seed ${SEED})`, { timeout: 60_000 }, () => {
  it.each(fuzzed.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s',
    async (_, route) => {
      const calls = fc.sample(routeCallArbitrary(route, known), { numRuns: RUNS, seed: SEED });
      const started = Date.now();
      for (const [i, call] of calls.entries()) {
        if (i >= MIN_RUNS && Date.now() - started > TIME_MS) break;
        const token = route.credential === 'none' ? undefined : h.accessToken;
        const response = await sendRouteCall(h.service.url, route, call, token);
        await expectDocumentedAnswer(route, response, JSON.stringify(call).slice(0, 400));
      }
    },
  );
});
