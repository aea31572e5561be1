import { request } from 'node:http';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { parse } from 'yaml';
import type { RouteSpec } from '../../src/shared/api';

// Live answers checked against the /openapi.yaml a running service publishes: the status is listed for the
// operation, the content type is one it lists, and a JSON body fits its schema (ajv, JSON Schema 2020-12).
interface OpenApiResponse {
  content?: Record<string, { schema?: unknown }>;
}
interface OpenApiDoc {
  paths: Record<string, Record<string, { responses: Record<string, OpenApiResponse> }>>;
}

export type ExpectAsDocumented = (route: RouteSpec, response: Response) => Promise<void>;

const pointer = (...parts: string[]) =>
  parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Fetches the service's /openapi.yaml and returns the check of one answer against it. */
export async function publishedOpenApi(serviceUrl: string): Promise<ExpectAsDocumented> {
  const yaml = await fetch(`${serviceUrl}/openapi.yaml`);
  expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
  const doc = parse(await yaml.text()) as OpenApiDoc;
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  // The document is the base of every `#/components/...` reference inside it.
  ajv.addSchema(doc as object, 'openapi.json');

  return async (route, response) => {
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
    expect(
      valid,
      `${where} with a body off /openapi.yaml: ${ajv.errorsText()} in ${text.slice(0, 300)}`,
    ).toBe(true);
  };
}

export interface RawRequest {
  method: string;
  /** The request target exactly as sent (fetch would normalise `.` segments away). */
  target: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One request over node:http, which sends the target and the Host header as given; the answer as a Response. */
export function rawRequest(serviceUrl: string, raw: RawRequest): Promise<Response> {
  const { hostname, port } = new URL(serviceUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, method: raw.method, path: raw.target, headers: raw.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const status = res.statusCode ?? 0;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers }));
        });
      },
    );
    req.on('error', reject);
    req.end(raw.body);
  });
}
