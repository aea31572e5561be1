import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalRule, ApprovalRules } from '../../../../src/shared/api';
import { firstAgentId, signIn, startTestService, type TestService } from '../../../support/local-service';

// Our approval-rules extension over real HTTP, on the run's store (the file, or PostgreSQL in the
// service-postgres project): kept per agent, the same rule once, removed, and nobody else's.

let service: TestService;
let token: string;
let agentId: string;
beforeAll(async () => {
  service = await startTestService();
  token = (await signIn(service)).access_token;
  agentId = await firstAgentId(service, token);
});
afterAll(() => service?.cleanup());

async function call(method: string, path: string, body?: unknown, as = token) {
  const response = await fetch(`${service.url}/api/v2/me/agents/${agentId}/approval-rules${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${as}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('approval rules (our extension)', () => {
  it('adds, lists (oldest first), keeps the same rule once, and removes', async () => {
    const allow = await call('POST', '', { efecto: 'permitir', herramienta: 'edit', carpeta: 'notes' });
    expect(allow.status).toBe(201);
    const rule = ApprovalRule.parse(allow.body);
    expect(rule).toMatchObject({ efecto: 'permitir', herramienta: 'edit', carpeta: 'notes' });
    expect(Date.parse(rule.creada)).toBeGreaterThan(Date.now() - 60_000);

    const again = await call('POST', '', { efecto: 'permitir', herramienta: 'edit', carpeta: 'notes' });
    expect(again.status).toBe(200);
    expect(again.body['id']).toBe(rule.id);
    const deny = await call('POST', '', { efecto: 'denegar', herramienta: 'execute' });
    expect(deny.status).toBe(201);
    expect(deny.body['carpeta']).toBeNull();

    const listed = ApprovalRules.parse((await call('GET', '')).body).reglas;
    expect(listed.map((r) => [r.efecto, r.herramienta, r.carpeta])).toEqual([
      ['permitir', 'edit', 'notes'],
      ['denegar', 'execute', null],
    ]);

    expect(await call('DELETE', `/${rule.id}`)).toEqual({
      status: 200,
      body: { id: rule.id, borrada: true },
    });
    expect((await call('DELETE', `/${rule.id}`)).status).toBe(404);
    expect(ApprovalRules.parse((await call('GET', '')).body).reglas).toHaveLength(1);
  });

  it('refuses a body that is not a rule, and another person’s agent', async () => {
    expect((await call('POST', '', { efecto: 'maybe', herramienta: 'edit' })).body).toMatchObject({
      error: 'body_invalido',
    });
    expect((await call('POST', '', { efecto: 'permitir', herramienta: ' ' })).status).toBe(400);
    expect((await call('POST', '', { efecto: 'permitir' })).status).toBe(400);
    const stranger = (await signIn(service, { email: 'rules-stranger@example.test' })).access_token;
    expect((await call('GET', '', undefined, stranger)).status).toBe(404);
    expect((await call('POST', '', { efecto: 'permitir', herramienta: 'edit' }, stranger)).status).toBe(404);
  });
});
