import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuotaError } from '../../../../src/shared/api';
import { createHarness, type Harness } from '../turns/harness';

// Real service and demo agent (models demo-fast and demo-deep), with an allowance of one turn for the account.
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { turns: { quota: { turns: 1 } } } });
}, 60_000);
afterAll(() => h?.close());

describe('POST …/model', () => {
  it('refuses a model the agent does not offer, even before the conversation has run a turn', async () => {
    const id = await h.conversation();
    const refused = await h.api<{ error: string; detalle: string }>('POST', h.path(id, '/model'), {
      model: 'gpt-of-someone-else',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'modelo_invalido', detalle: expect.stringContaining('demo-deep') });
    expect((await h.api('POST', h.path(id, '/model'), { model: 'demo-deep' })).status).toBe(200);
  });
});

describe('POST …/try and the allowance', () => {
  it('a try turn uses the allowance like any turn; once it is used up, try answers 402 quota_exhausted', async () => {
    const tryPath = `/api/v2/agents/${h.agentId}/try`;
    expect((await h.api('POST', tryPath, { text: 'uses the one turn', session: 'before' })).status).toBe(200);

    const id = await h.conversation();
    expect((await h.send(id, { content: 'no turn left' })).status).toBe(402);

    const refused = await h.api('POST', tryPath, { text: 'one more', session: 'after' });
    expect(refused.status).toBe(402);
    expect(QuotaError.parse(refused.body)).toEqual({ error: 'quota_exhausted', message: expect.any(String) });
  });
});
