import { afterEach, describe, expect, it } from 'vitest';
import { QuotaError } from '../../../../src/shared/api';
import { createHarness, type Harness } from './harness';

// Real service and demo agent over real HTTP. The spec: "The try turn consumes balance like any turn".

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const tryTurn = (harness: Harness, text: string) =>
  harness.api('POST', `/api/v2/agents/${harness.agentId}/try`, { text, session: 'allowance' });

describe('try turns and the account allowance', () => {
  it('a try turn counts as one of the allowed turns, with conversation turns', async () => {
    h = await createHarness({ config: { turns: { quota: { turns: 2 } } } });
    expect((await tryTurn(h, 'first turn, a try')).status).toBe(200);

    const id = await h.conversation();
    const stream = await h.events(id);
    const sent = await h.send(id, { content: 'second turn, in a conversation' });
    expect(sent.status).toBe(202);
    await stream.untilDone(sent.body.turnId as string);
    stream.close();

    const refusedTurn = await h.send(id, { content: 'a third turn' });
    expect(refusedTurn.status).toBe(402);
    expect(QuotaError.parse(refusedTurn.body).error).toBe('quota_exhausted');
    expect((await tryTurn(h, 'a third turn, as a try')).status).toBe(402);
    expect((await h.service.context.conversations.allowance.used(await personOf(h))).turns).toBe(2);
  });

  it('the tokens a try turn reports are spent from the token allowance', async () => {
    h = await createHarness({ config: { turns: { quota: { tokens: 1 } } } });
    const id = await h.conversation();
    expect((await tryTurn(h, 'spends a few tokens')).status).toBe(200);

    const refused = await h.send(id, { content: 'no tokens left' });
    expect(refused.status).toBe(402);
    expect(QuotaError.parse(refused.body).message).toContain('tokens');
    expect((await h.service.context.conversations.allowance.used(await personOf(h))).tokens).toBeGreaterThan(
      0,
    );
  });
});

/** The signed-in person: the owner of the harness's agent. */
async function personOf(harness: Harness): Promise<string> {
  const owner = (await harness.service.context.identity.agents.find(harness.agentId))?.personId;
  if (!owner) throw new Error('the harness agent has no owner');
  return owner;
}
