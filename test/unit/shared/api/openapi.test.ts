import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, openApiYaml } from '../../../../src/shared/api/openapi';
import { SPEC_ROUTE_PAIRS } from './spec-route-pairs';

type Operation = { security?: unknown[]; description?: string; responses: Record<string, unknown> };
type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, unknown>> };
};

const committedPath = fileURLToPath(new URL('../../../../docs/openapi.yaml', import.meta.url));

describe('OpenAPI document', () => {
  it('validates with @redocly/openapi-core (recommended rules): zero errors', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: openApiYaml(), absoluteRef: 'openapi.yaml', config });
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('is OpenAPI 3.1 with info.version 2.0', () => {
    const doc = buildOpenApiDocument() as Doc;
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe('2.0');
  });

  it('lists every method+path pair of the spec', () => {
    const doc = parse(openApiYaml()) as Doc;
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const [method, path] of SPEC_ROUTE_PAIRS) expect(listed).toContain(`${method} ${path}`);
    // Our only extra routes: the signed-URL download, OAuth discovery, the catalog's skill folders, the lent tools' MCP server, fork.
    const extra = listed.filter((k) => !SPEC_ROUTE_PAIRS.some(([m, p]) => `${m} ${p}` === k));
    expect(extra).toEqual(
      expect.arrayContaining([
        'GET /.well-known/oauth-authorization-server',
        'GET /files/{id}',
        'GET /archivos/{id}',
        'GET /catalogo/skills/{slug}',
        'POST /gs-mcp/{agentId}/{channel}',
        'POST /api/v2/me/agents/{agentId}/conversations/{sessionId}/fork',
      ]),
    );
    // Every extra route is marked as ours.
    for (const key of extra) {
      const [method, path] = key.split(' ') as [string, string];
      expect(doc.paths[path]?.[method.toLowerCase()], key).toMatchObject({ 'x-agentdesk-extension': true });
    }
    expect(doc.paths['/catalogo/skills/{slug}']?.get).toMatchObject({ 'x-agentdesk-extension': true });
    expect(doc.paths['/files/{id}']?.get).toMatchObject({ 'x-agentdesk-extension': true });
    expect(doc.paths['/archivos/{id}']?.get).toMatchObject({ 'x-agentdesk-extension': true });
  });

  it('declares OAuth (authorization code + PKCE, four scopes) and agent bearer security', () => {
    const doc = buildOpenApiDocument() as Doc;
    const oauth = doc.components.securitySchemes.oauth2 as {
      type: string;
      flows: { authorizationCode: { scopes: Record<string, string>; authorizationUrl: string } };
    };
    expect(oauth.type).toBe('oauth2');
    expect(Object.keys(oauth.flows.authorizationCode.scopes).sort()).toEqual(
      ['agents:read', 'agents:write', 'files', 'profile'].sort(),
    );
    expect(doc.components.securitySchemes.agentToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/v2/agents/{id}/mcp']?.put?.security).toEqual([
      { agentToken: [] },
      { oauth2: ['agents:write'] },
    ]);
    expect(doc.paths['/api/v2/me/stt']?.post?.security).toEqual([{ oauth2: ['files'] }]);
    expect(doc.paths['/oauth2/token']?.post?.security).toEqual([]);
  });

  it('documents our choices and our file-bytes extension', () => {
    const doc = buildOpenApiDocument() as Doc;
    expect(doc.paths['/s/{slug}']?.get?.description).toContain('(our choice)');
    expect(doc.paths['/oauth2/proveedores']?.get?.description).toContain('(our choice)');
    const files = doc.paths['/api/v2/agents/{id}/files/{path}']?.get;
    expect(files?.description).toContain('application/octet-stream');
    expect(Object.keys((files?.responses['200'] as { content: object }).content)).toEqual([
      'application/json',
      'application/octet-stream',
    ]);
  });

  it('uses absolute OAuth URLs when given a server URL', () => {
    const doc = buildOpenApiDocument({ serverUrl: 'http://127.0.0.1:4321/' }) as Doc & {
      servers: { url: string }[];
    };
    expect(doc.servers[0]?.url).toBe('http://127.0.0.1:4321');
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      flows: { authorizationCode: { tokenUrl: 'http://127.0.0.1:4321/oauth2/token' } },
    });
  });

  it('committed docs/openapi.yaml is up to date (run `npm run openapi`)', () => {
    expect(readFileSync(committedPath, 'utf8')).toBe(openApiYaml());
  });
});
