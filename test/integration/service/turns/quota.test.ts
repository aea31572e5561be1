import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuotaError } from '../../../../src/shared/api';
import { createHarness, type Harness } from './harness';

// Real service and demo agent, with a configured allowance of two turns for the account.

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { turns: { quota: { turns: 2 } } } });
});
afterAll(() => h?.close());

describe('the account allowance', () => {
  it('402 quota_exhausted once the configured turns are used; a repeated turnId still answers', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const first = randomUUID();
    for (const turnId of [first, randomUUID()]) {
      const res = await h.send(id, { content: 'hi', turnId });
      expect(res.status).toBe(202);
      await stream.untilDone(turnId);
    }
    const refused = await h.send(id, { content: 'one more' });
    expect(refused.status).toBe(402);
    expect(QuotaError.parse(refused.body)).toEqual({ error: 'quota_exhausted', message: expect.any(String) });
    const repeated = await h.send(id, { content: 'hi', turnId: first });
    expect(repeated).toMatchObject({ status: 202, body: { turnId: first, repetido: true } });
  });

  it('racing POSTs in several conversations take exactly the turns left, on either store', async () => {
    const racing = await createHarness({ config: { turns: { quota: { turns: 2 } } } });
    try {
      const ids = await Promise.all(Array.from({ length: 6 }, () => racing.conversation()));
      const answers = await Promise.all(ids.map((id) => racing.send(id, { content: 'hi' })));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([202, 202, 402, 402, 402, 402]);
    } finally {
      await racing.close();
    }
  });
});
