import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteSpec } from '../../../../src/shared/api';
import { startHarness, type Harness } from '../agent-config/harness';
import {
  expectSafeAnswer,
  expectStillAnswering,
  createOwnObjects,
  rawRequest,
  targetFor,
  type OwnIds,
} from './hostile-input-support';

// Every route of the table that takes a body (so a new one is covered at once), against the real service over
// real HTTP: malformed JSON, JSON of the wrong kind, each field given a value of the wrong type, unknown and
// prototype-polluting fields, huge strings, NUL / control characters / lone surrogates, bytes that are not
// UTF-8, a wrong Content-Type and an empty body. A body the route's own schema refuses must be 400 with the
// spec's `{error, detalle}`; anything else a documented status; never a 500, a stack or a path of the machine;
// and the service keeps answering. DELETE /api/v2/me is left out (it would delete the account under test).

let h: Harness;
let ids: OwnIds;

beforeAll(async () => {
  h = await startHarness();
  ids = await createOwnObjects(h);
}, 60_000);
afterAll(() => h?.close());

/** A body each JSON route accepts, so one broken field is the only fault (absent: `{}`). */
const GOOD: Record<string, Record<string, unknown>> = {
  patchAgent: { name: 'Renamed' },
  putAgentSkill: { markdown: '---\ndescription: a skill\n---\n# Skill\n' },
  putAgentMcp: { servers: [] },
  tryAgent: { text: 'hello', session: 'hostile' },
  putAgentMsgapp1: { numbers: [] },
  renameConversation: { title: 'A title' },
  postMessage: { content: 'hello' },
  answerPermission: { id: 'no-such-request', optionId: 'allow' },
  setModel: { model: 'demo-fast' },
  createSchedule: { prompt: 'later', inMinutes: 60 },
  registerDevice: { token: 'device-token', plataforma: 'ios' },
  unregisterDevice: { token: 'device-token' },
};

const HUGE = 'x'.repeat(1_500_000);
const CONTROL = 'a\u0000b\u0007c\u001b[31md\u007f\u202eé\ud800';
/** Values of the wrong type or out of any sane range; each is sent only where the schema refuses it. */
const WRONG: unknown[] = [
  12345,
  -1,
  1e308,
  -1e308,
  2 ** 53 + 1,
  true,
  null,
  [],
  {},
  [{}],
  'NaN',
  'Infinity',
  '',
  'not-a-date',
  '2026-02-30T25:61:00Z',
  '+275760-09-13T00:00:00.001Z',
  CONTROL,
  { $ne: null },
];

interface BodyCase {
  what: string;
  body: string | Buffer;
  contentType?: string;
  /** The value the body parses to, when it is JSON, so the route's schema can say whether it is valid. */
  value?: unknown;
}

function jsonCase(what: string, value: unknown): BodyCase {
  return { what, body: JSON.stringify(value), contentType: 'application/json', value };
}

function fieldsOf(route: RouteSpec): string[] {
  const shape = (route.request.body?.schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return Object.keys(shape ?? {});
}

function casesFor(route: RouteSpec): BodyCase[] {
  const good = GOOD[route.operationId] ?? {};
  const raw = (what: string, body: string | Buffer, contentType = 'application/json') => ({
    what,
    body,
    contentType,
  });
  const cases: BodyCase[] = [
    raw('malformed JSON', '{"name": "x",'),
    raw('JSON with a trailing comma', '{"a": 1,}'),
    raw('a number too big for a double', '{"a": 1e999}'),
    jsonCase('an array', [good]),
    jsonCase('a string', 'text'),
    jsonCase('null', null),
    jsonCase('a number', 42),
    raw('an empty body', ''),
    raw('bytes that are not UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
    raw('XML with an XML Content-Type', '<a><b>1</b></a>', 'application/xml'),
    // Read as JSON whatever its label: a fetch of a string sends text/plain, curl -d a form type.
    {
      what: 'good JSON sent as text/plain',
      body: JSON.stringify(good),
      contentType: 'text/plain',
      value: good,
    },
    {
      what: 'good JSON sent as a form',
      body: JSON.stringify(good),
      contentType: 'application/x-www-form-urlencoded',
      value: good,
    },
    { what: 'good JSON with no Content-Type', body: JSON.stringify(good), value: good },
    raw('a form post', 'name=x&title=y', 'application/x-www-form-urlencoded'),
    raw(
      'a multipart body',
      '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--',
      'multipart/form-data; boundary=b',
    ),
    raw('JSON nested 100,000 deep', '['.repeat(100_000) + ']'.repeat(100_000)),
    jsonCase('unknown and prototype-polluting fields', {
      ...good,
      unknownField: 'x',
      constructor: { prototype: { polluted: true } },
      ['__proto__']: { polluted: true },
    }),
  ];
  const fields = fieldsOf(route);
  const huge = fields[0] ?? 'field';
  cases.push(jsonCase(`a 1.5 MB string in ${huge}`, { ...good, [huge]: HUGE }));
  for (const field of fields) {
    cases.push(
      jsonCase(`control characters and a lone surrogate in ${field}`, { ...good, [field]: CONTROL }),
    );
    for (const value of WRONG) {
      cases.push(jsonCase(`${field}: ${JSON.stringify(value).slice(0, 40)}`, { ...good, [field]: value }));
    }
  }
  // `__proto__` as a literal key: JSON.stringify drops it from an object literal, so it is written by hand.
  cases.push(
    raw(
      'a __proto__ key',
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": 1}}}',
    ),
  );
  return cases;
}

/** 400 when the route's own schema refuses the body (or it is not JSON at all); 413 past the cap. */
function expectedFor(route: RouteSpec, c: BodyCase): number[] | undefined {
  // OAuth and the lent tools' MCP server check their Content-Type or bearer before the size (documented).
  if (!route.path.startsWith('/api/v2/')) return undefined;
  const cap = route.request.body?.maxBytes;
  if (cap !== undefined && Buffer.byteLength(c.body) > cap) return [413];
  const schema = route.request.body?.schema;
  if (!('value' in c)) {
    // Not JSON at all (or JSON whose numbers a double cannot hold, which JSON.parse turns into Infinity).
    if (c.what === 'an empty body' && !route.request.body?.required) return undefined;
    if (c.what.startsWith('a __proto__')) return undefined;
    if (c.what === 'a number too big for a double' && schema?.safeParse({ a: Infinity }).success)
      return undefined;
    return [400];
  }
  if (schema && !schema.safeParse(c.value).success) return [400];
  return undefined;
}

const jsonRoutes = routes.filter(
  (route) =>
    (route.request.body?.kind === 'json' || route.request.body?.kind === 'form') &&
    !(route.method === 'DELETE' && route.path === '/api/v2/me'),
);

describe('hostile JSON and form bodies on every route that takes one', { timeout: 120_000 }, () => {
  it.each(jsonRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s',
    async (_, route) => {
      // A skill of the same slug installed earlier stays; each case stands on its own.
      for (const c of casesFor(route)) {
        const answer = await rawRequest(h.service.url, {
          method: route.method,
          target: targetFor(route, ids),
          token: h.accessToken,
          ...(c.contentType ? { contentType: c.contentType } : {}),
          body: c.body,
        });
        expectSafeAnswer(route, answer, h.service.dataDir, c.what, expectedFor(route, c));
        expect(({} as Record<string, unknown>)['polluted'], c.what).toBeUndefined();
      }
      await expectStillAnswering(h.service.url, h.accessToken);
    },
  );
});

describe('a JSON body is read as JSON whatever its label', () => {
  // A fetch of a string sends text/plain and curl -d a form type: both are JSON the route takes.
  it.each([['text/plain;charset=UTF-8'], ['application/x-www-form-urlencoded'], [undefined]])(
    'renames a conversation with its body sent as %s',
    async (contentType) => {
      const title = `Titled under ${contentType ?? 'no type'}`;
      const answer = await rawRequest(h.service.url, {
        method: 'PATCH',
        target: `/api/v2/me/agents/${ids.agentId}/conversations/${ids.sessionId}`,
        token: h.accessToken,
        ...(contentType ? { contentType } : {}),
        body: JSON.stringify({ title }),
      });
      expect(answer.status).toBe(200);
    },
  );
});

const byteRoutes = routes.filter(
  (route) => route.request.body?.kind === 'octet-stream' || route.request.body?.kind === 'audio',
);

describe('hostile raw bodies on every route that takes bytes', { timeout: 60_000 }, () => {
  const CASES: { what: string; contentType?: string; body: string | Buffer; expect?: number[] }[] = [
    {
      what: 'a multipart form',
      contentType: 'multipart/form-data; boundary=b',
      body: '--b--',
      expect: [400],
    },
    { what: 'a JSON Content-Type', contentType: 'application/json', body: '{"a":1}' },
    { what: 'no Content-Type', body: Buffer.from([0, 1, 2, 255]) },
    { what: 'an empty body', contentType: 'application/octet-stream', body: '' },
    { what: 'a Content-Type with NUL', contentType: 'audio/wav; x="\u0001"', body: 'RIFF' },
  ];
  it.each(byteRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s',
    async (_, route) => {
      for (const c of CASES) {
        const answer = await rawRequest(h.service.url, {
          method: route.method,
          target: targetFor(route, ids) + (route.operationId === 'uploadFile' ? '?nombre=x.bin' : ''),
          token: h.accessToken,
          ...(c.contentType ? { contentType: c.contentType } : {}),
          body: c.body,
        }).catch((error: Error) => ({ status: 0, headers: {}, text: error.message }));
        // Node refuses to send a header with a control character; then there is nothing to judge.
        if (answer.status === 0) continue;
        const audioWithoutType =
          route.request.body?.kind === 'audio' && !/^audio\//.test(c.contentType ?? '');
        expectSafeAnswer(
          route,
          answer,
          h.service.dataDir,
          c.what,
          c.expect ?? (audioWithoutType ? [400] : undefined),
        );
      }
      await expectStillAnswering(h.service.url, h.accessToken);
    },
  );
});
