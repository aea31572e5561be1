import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationResponse, ConversationsResponse } from '../../../../src/shared/api';
import { signIn } from '../../../support/local-service';
import { createHarness, type Harness } from './harness';

// Our fork extension over real HTTP with the real demo agent: the copy, its limits, and that the
// agent of the fork really is given the history before the fork point (it recalls it).

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

async function turn(id: string, content: string): Promise<string> {
  const stream = await h.events(id);
  const res = await h.send(id, { content });
  const turnId = res.body.turnId as string;
  await stream.untilDone(turnId);
  stream.close();
  return turnId;
}

const messages = async (id: string) =>
  ConversationResponse.parse((await h.api('GET', h.path(id))).body).messages;

describe('fork (our extension)', () => {
  it('keeps the first `hasta` messages, and the fork’s agent recalls them', async () => {
    const id = await h.conversation();
    await turn(id, 'apples are red');
    await turn(id, 'pears are green');
    await h.api('PATCH', h.path(id), { title: 'Fruit' });

    const forked = await h.api('POST', h.path(id, '/fork'), { hasta: 2 });
    expect(forked.status).toBe(201);
    const newId = forked.body.id as string;
    expect(forked.body.titulo).toBe('Fruit (branch)');
    expect((await messages(newId)).map((m) => m.content.split('\n')[0])).toEqual([
      'apples are red',
      'Hello! You said: "apples are red".',
    ]);
    const list = ConversationsResponse.parse((await h.api('GET', h.path())).body).conversaciones;
    expect(list.find((c) => c.id === newId)?.titulo).toBe('Fruit (branch)');

    await turn(newId, 'what about plums?');
    const reply = (await messages(newId)).at(-1)!.content;
    // The demo agent counts and quotes what it was given: the fork's history, not the original's tail.
    expect(reply).toContain('This is message 2 of our conversation; before this you said: "apples are red".');
    // The original is untouched.
    expect(await messages(id)).toHaveLength(4);
  });

  it('by turnId: every message through that turn', async () => {
    const id = await h.conversation();
    const first = await turn(id, 'one');
    await turn(id, 'two');
    const forked = await h.api('POST', h.path(id, '/fork'), { turnId: first });
    expect(forked.status).toBe(201);
    expect((await messages(forked.body.id as string)).map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('refuses a point outside the conversation, a bad body, and another person’s conversation', async () => {
    const id = await h.conversation();
    expect((await h.api('POST', h.path(id, '/fork'), { hasta: 1 })).body).toMatchObject({
      error: 'body_invalido',
    });
    await turn(id, 'only this');
    const past = await h.api('POST', h.path(id, '/fork'), { hasta: 3 });
    expect(past.status).toBe(400);
    expect(past.body.detalle).toMatch(/^hasta must be from 1 to 2/);
    expect((await h.api('POST', h.path(id, '/fork'), { turnId: 'nope' })).status).toBe(400);
    expect((await h.api('POST', h.path(id, '/fork'), {})).status).toBe(400);
    expect((await h.api('POST', h.path(id, '/fork'), { hasta: 0 })).status).toBe(400);
    const stranger = (await signIn(h.service, { email: 'fork-stranger@example.test' })).access_token;
    expect((await h.api('POST', h.path(id, '/fork'), { hasta: 1 }, stranger)).status).toBe(404);
  });
});
