import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startHarness, type Harness } from './harness';

// Our agent-deleting extension under requests that arrive together, over real HTTP: the rules "an account
// keeps one agent" and "not while a reply runs" hold when two deletes race, not only one at a time.

describe('deleting agents at the same time (our extension)', { timeout: 120_000 }, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const agentIds = async () =>
    ((await json(await h.call('/api/v2/me/agents'))).agentes as { id: string }[]).map((a) => a.id);

  /** A finished reply in the agent's conversation, so its machine is running when the delete comes. */
  async function warm(agentId: string): Promise<void> {
    const base = `/api/v2/me/agents/${agentId}/conversations`;
    const { id } = await json(await h.call(base, { method: 'POST' }));
    const sent = await h.call(`${base}/${id}/messages`, { method: 'POST', json: { content: 'hello' } });
    expect(sent.status).toBe(202);
    await expect
      .poll(
        async () => (await json(await h.call(`${base}/${id}`))).ultimoTurno?.estado as string | undefined,
        { timeout: 45_000 },
      )
      .toBe('done');
  }

  it('two deletes of an account’s only two agents: one is deleted, the other refused, one agent is left', async () => {
    const second = await json(
      await h.call('/api/v2/me/agents', { method: 'POST', json: { nombre: 'Second' } }),
    );
    const both = [h.agentId, second.id as string];
    await Promise.all(both.map(warm));

    const answers = await Promise.all(
      both.map((id) => h.call(`/api/v2/me/agents/${id}`, { method: 'DELETE' })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = await json(answers.find((a) => a.status === 409)!);
    expect(refused).toMatchObject({ error: 'ultimo_agente' });
    expect(typeof refused.detalle).toBe('string');
    expect(await agentIds()).toHaveLength(1);
  });

  it('the same agent deleted twice at once: deleted once, the other answer is 404', async () => {
    const extra = await json(
      await h.call('/api/v2/me/agents', { method: 'POST', json: { nombre: 'Extra' } }),
    );
    await warm(extra.id);
    const answers = await Promise.all(
      [1, 2].map(() => h.call(`/api/v2/me/agents/${extra.id}`, { method: 'DELETE' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
    expect(await agentIds()).not.toContain(extra.id);
  });
});
