import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSafeRelativePath, routes, type RouteSpec } from '../../../../src/shared/api';
import { startHarness, type Harness } from '../agent-config/harness';
import {
  expectSafeAnswer,
  expectStillAnswering,
  createOwnObjects,
  rawRequest,
  targetFor,
  type OwnIds,
} from './hostile-input-support';

// Every path parameter and query parameter of every route in the table (so a new route is covered at once),
// sent raw over real HTTP (no client normalises `%2e%2e` away): percent-encoded traversal, absolute and
// backslash paths, NUL and control characters, lone surrogates and bytes that are not UTF-8, overlong ids,
// and negative / NaN / huge numbers and impossible dates in the query. A bad parameter is 400 or 404 with
// the spec's `{error, detalle}`; never a 500, a stack or a path of the machine; nothing is written outside the
// agent's workspace; and the service keeps answering.

const MARKER = 'hostile-path-marker';
let h: Harness;
let ids: OwnIds;

beforeAll(async () => {
  h = await startHarness();
  ids = await createOwnObjects(h);
}, 60_000);
afterAll(() => h?.close());

/** Raw (already escaped) values for a path parameter. */
const PARAM_VALUES = [
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '..%5c..%5cwindows%5cwin.ini',
  '%5c%5cserver%5cshare',
  '..%00',
  '%00',
  'a%00b',
  'a%0d%0aX-Injected:%201',
  'a%1b%5b31m',
  '%ed%a0%80',
  '%ff%fe',
  '%c0%ae%c0%ae',
  '%e2%80%ae',
  '%2fetc%2fpasswd',
  'C:%5cWindows%5cwin.ini',
  '%252e%252e',
  'a'.repeat(8000),
];

/** Extra raw values where the parameter is a workspace path (it may span segments). */
const WORKSPACE_PATHS = [
  '../../../../etc/passwd',
  'notes/../../secret',
  'notes/%2e%2e/%2e%2e/secret',
  '/etc/passwd',
  '//etc/passwd',
  'notes%5c..%5c..%5csecret',
  'notes/./x',
  'a/%00/b',
];

const pathRoutes = routes.filter(
  (route) => route.path.includes('{') && !(route.method === 'DELETE' && route.path === '/api/v2/me'),
);

function paramNames(route: RouteSpec): string[] {
  return [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}

function bodyFor(route: RouteSpec): { contentType?: string; body?: string } {
  const kind = route.request.body?.kind;
  if (kind === 'octet-stream') return { contentType: 'application/octet-stream', body: MARKER };
  if (kind === 'json') return { contentType: 'application/json', body: '{}' };
  return {};
}

describe('hostile path parameters on every route', { timeout: 120_000 }, () => {
  it.each(pathRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s',
    async (_, route) => {
      for (const name of paramNames(route)) {
        const values = name === 'path' ? [...PARAM_VALUES, ...WORKSPACE_PATHS] : PARAM_VALUES;
        for (const raw of values) {
          const answer = await rawRequest(h.service.url, {
            method: route.method,
            target: targetFor(route, ids, { name, raw }),
            token: h.accessToken,
            ...bodyFor(route),
          });
          // Public routes (a share slug, a signed file, the catalog) answer their own way; /api/v2 ones with
          // 400 (a bad value) or 404 (no such thing). A final workspace path may also be a plain new file.
          const api = route.path.startsWith('/api/v2/');
          // DELETE of a library file answers the spec's only body, `{deleted: false}`, for any id not the caller's.
          const allowed =
            !api || name === 'path'
              ? undefined
              : route.operationId === 'deleteFile'
                ? [200, 400, 404]
                : [400, 404];
          expectSafeAnswer(route, answer, h.service.dataDir, `${name}=${raw.slice(0, 60)}`, allowed);
          expect(answer.headers['x-injected'], raw).toBeUndefined();
          if (answer.status === 200 && route.operationId === 'deleteFile') {
            expect(JSON.parse(answer.text), raw).toEqual({ deleted: false });
          }
        }
      }
      await expectStillAnswering(h.service.url, h.accessToken);
    },
  );

  it('a traversing workspace path is 400 ruta_invalida on every files route', async () => {
    const files = routes.filter((route) => route.path.endsWith('/files/{path}'));
    for (const route of files) {
      for (const raw of [
        '%2e%2e%2fx',
        '..%2fx',
        'a/%2e%2e/%2e%2e/x',
        '%2fetc%2fpasswd',
        'a%5c..%5cx',
        '..%00',
      ]) {
        const answer = await rawRequest(h.service.url, {
          method: route.method,
          target: targetFor(route, ids, { name: 'path', raw }),
          token: h.accessToken,
          ...bodyFor(route),
        });
        expectSafeAnswer(route, answer, h.service.dataDir, raw, [400]);
        expect(JSON.parse(answer.text), raw).toMatchObject({ error: 'ruta_invalida' });
      }
    }
  });

  it('no hostile write landed outside the agent’s workspace', async () => {
    const workspace = join(h.service.dataDir, 'agents', h.agentId, 'work');
    for (const file of await filesUnder(h.service.dataDir)) {
      const text = await readFile(file, 'utf8').catch(() => '');
      if (text === MARKER) expect(relative(workspace, file), file).not.toMatch(/^\.\.|^\//);
    }
  });
});

/** File paths an attacker puts inside a JSON body: a skill's assets and a bundle's files. */
const BODY_PATHS = [
  '../escaped.txt',
  'a/../../escaped.txt',
  '/tmp/escaped.txt',
  '\\\\server\\share\\escaped.txt',
  'a\\..\\..\\escaped.txt',
  'C:\\escaped.txt',
  'a\u0000b',
  '',
  '.',
  './',
  'a/.',
  'a//b',
  '.agentdesk-tmp-x',
  'x'.repeat(5000),
];

describe('file paths inside bodies (skill assets, bundle files)', () => {
  const MARKER_BASE64 = Buffer.from(MARKER).toString('base64');
  it.each(BODY_PATHS.map((p) => [JSON.stringify(p).slice(0, 40), p] as const))('%s', async (_, path) => {
    const skill = routes.find((route) => route.operationId === 'putAgentSkill')!;
    const bundle = routes.find((route) => route.operationId === 'postAgentBundle')!;
    const markdown = '---\ndescription: a skill\n---\n# Skill\n';
    const bodies: [typeof skill, string, unknown][] = [
      [skill, path, { markdown, assets: [{ name: path, contentBase64: MARKER_BASE64 }] }],
      [bundle, path, { files: [{ path, contentBase64: MARKER_BASE64 }] }],
      [bundle, `knowledge/${path}`, { files: [{ path: `knowledge/${path}`, contentBase64: MARKER_BASE64 }] }],
    ];
    for (const [route, posted, body] of bodies) {
      const answer = await rawRequest(h.service.url, {
        method: route.method,
        target: targetFor(route, ids),
        token: h.accessToken,
        contentType: 'application/json',
        body: JSON.stringify(body),
      });
      // A skill refuses any odd asset name; a bundle refuses what is not a relative path and lists the rest
      // it cannot place under `ignorado` (the spec's bundle answer), applying none of it.
      const refused = route === skill || !isSafeRelativePath(posted);
      expectSafeAnswer(
        route,
        answer,
        h.service.dataDir,
        JSON.stringify(body).slice(0, 120),
        refused ? [400] : [200],
      );
      if (!refused) expect((JSON.parse(answer.text) as { aplicado: string[] }).aplicado).toEqual([]);
    }
    // Where a climb out of the agent's folder would land (inside the data folder, the next test looks).
    for (const outside of [join(h.service.dataDir, '..', 'escaped.txt'), '/tmp/escaped.txt']) {
      expect(await readFile(outside, 'utf8').catch(() => null), outside).toBeNull();
    }
  });

  it('wrote every marker inside the agent’s own folder', async () => {
    const agentDir = join(h.service.dataDir, 'agents', h.agentId);
    for (const file of await filesUnder(h.service.dataDir)) {
      const text = await readFile(file, 'utf8').catch(() => '');
      if (text === MARKER) expect(relative(agentDir, file), file).not.toMatch(/^\.\.|^\//);
    }
  });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Raw (already escaped) values for a query parameter: numbers, dates, escapes and sizes that are wrong. */
const QUERY_VALUES = [
  '-1',
  '0',
  'NaN',
  'Infinity',
  '1e309',
  '99999999999999999999',
  '1.5',
  '0x10',
  '2026-13-45T99%3A99%3A99Z',
  'not-a-date',
  '',
  '%00',
  'a%0d%0ab',
  '%ff',
  '%ed%a0%80',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  'a'.repeat(8000),
];

const queryRoutes = routes.filter((route) => route.request.query);

describe('hostile query parameters on every route that reads one', { timeout: 60_000 }, () => {
  it.each(queryRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s',
    async (_, route) => {
      const shape = (route.request.query as { shape: Record<string, unknown> }).shape;
      for (const key of Object.keys(shape)) {
        for (const raw of QUERY_VALUES) {
          const answer = await rawRequest(h.service.url, {
            method: route.method,
            target: `${targetFor(route, ids)}?${key}=${raw}`,
            token: h.accessToken,
            ...bodyFor(route),
          });
          expectSafeAnswer(route, answer, h.service.dataDir, `?${key}=${raw.slice(0, 60)}`);
          const plain = /^[\w.:+-]*$/.test(raw);
          const refused = !route.request.query!.safeParse({ [key]: raw }).success;
          if (route.path.startsWith('/api/v2/') && plain && refused) {
            expect(answer.status, `?${key}=${raw} ${answer.text}`).toBe(400);
          }
          // A stored file whose name carries hostile characters must still download safely.
          if (route.operationId === 'uploadFile' && answer.status === 200)
            await expectSafeDownload(answer.text);
        }
      }
      await expectStillAnswering(h.service.url, h.accessToken);
    },
  );
});

async function expectSafeDownload(uploaded: string): Promise<void> {
  const url = new URL((JSON.parse(uploaded) as { url: string }).url);
  const route = routes.find((r) => r.path === '/files/{id}')!;
  const answer = await rawRequest(h.service.url, { method: 'GET', target: url.pathname + url.search });
  expectSafeAnswer(route, answer, h.service.dataDir, `download of ${uploaded.slice(0, 80)}`, [200]);
  expect(answer.text).toBe(MARKER);
  expect(answer.headers['x-injected']).toBeUndefined();
}
