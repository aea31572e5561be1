import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { routes, type RouteSpec } from '../../../../src/shared/api';
import { routeCallArbitrary, sendRouteCall, type KnownIds } from '../../../support/route-call';
import { startHarness, type Harness } from '../agent-config/harness';

// Every route called with good and bad input (generated from its schemas), with and without a token, against
// the real service; each live answer is checked against the /openapi.yaml that same service publishes: the
// status is listed for the operation, the content type is one it lists, and a JSON body fits its schema.
interface OpenApiResponse {
  content?: Record<string, { schema?: unknown }>;
}
interface OpenApiDoc {
  paths: Record<string, Record<string, { responses: Record<string, OpenApiResponse> }>>;
}

const SAMPLES = 8;
let h: Harness;
let known: KnownIds;
let doc: OpenApiDoc;
const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);

beforeAll(async () => {
  h = await startHarness();
  const created = await h.call(`/api/v2/me/agents/${h.agentId}/conversations`, { method: 'POST' });
  known = { agentId: h.agentId, sessionId: ((await created.json()) as { id: string }).id };
  const yaml = await fetch(`${h.service.url}/openapi.yaml`);
  expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
  doc = parse(await yaml.text()) as OpenApiDoc;
  // The document is the base of every `#/components/...` reference inside it.
  ajv.addSchema(doc as object, 'openapi.json');
}, 60_000);
afterAll(() => h?.close());

const pointer = (...parts: string[]) =>
  parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

async function expectAsDocumented(route: RouteSpec, response: Response): Promise<void> {
  const method = route.method.toLowerCase();
  const operation = doc.paths[route.path]?.[method];
  const where = `${route.method} ${route.path} answered ${response.status}`;
  expect(operation, `${route.method} ${route.path} is missing from /openapi.yaml`).toBeDefined();
  const documented = operation!.responses[String(response.status)];
  expect(documented, `${where}, which /openapi.yaml does not list`).toBeDefined();
  const media = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const listed = Object.keys(documented!.content ?? {});
  if (listed.length === 0) {
    expect(await response.text(), `${where} with a body /openapi.yaml does not describe`).toBe('');
    return;
  }
  expect(listed, `${where} as ${media || 'no content type'}`).toContain(media);
  if (media === 'text/event-stream') {
    await response.body?.cancel();
    return;
  }
  const text = await response.text();
  if (media !== 'application/json') return;
  const ref = `openapi.json#/${pointer('paths', route.path, method, 'responses', String(response.status), 'content', media, 'schema')}`;
  const valid = ajv.validate({ $ref: ref }, JSON.parse(text));
  expect(valid, `${where} with a body off /openapi.yaml: ${ajv.errorsText()} in ${text.slice(0, 300)}`).toBe(
    true,
  );
}

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
