import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationResponse, ConversationRewound, ConversationVersions } from '../../../../src/shared/api';
import { signIn } from '../../../support/local-service';
import { createHarness, type Harness } from './harness';

// Our rewind extension over real HTTP with the real demo agent (on the run's store: the file, or PostgreSQL
// in the service-postgres project): what stays, what is kept as a version, and that the agent's next session
// holds only the messages that stayed (the demo agent counts and quotes what it was given).

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

describe('rewind (our extension)', () => {
  it('retries in place: one copy of the message, the agent recalls the message before it, the old reply kept', async () => {
    const id = await h.conversation();
    await turn(id, 'wait 0');
    await turn(id, 'Give me three name ideas for a bakery');

    const rewound = await h.api('POST', h.path(id, '/rewind'), { hasta: 2 });
    expect(rewound.status).toBe(200);
    const body = ConversationRewound.parse(rewound.body);
    expect(body.version.desde).toBe(2);
    expect(body.version.mensajes.map((m) => m.content.split('\n')[0])).toEqual([
      'Give me three name ideas for a bakery',
      'Hello! You said: "Give me three name ideas for a bakery".',
    ]);
    expect(await messages(id)).toHaveLength(2);

    await turn(id, 'Give me three name ideas for a bakery');
    const now = await messages(id);
    expect(now.filter((m) => m.content === 'Give me three name ideas for a bakery')).toHaveLength(1);
    const reply = now.at(-1)!.content;
    // A new session, given the two messages that stayed: the person's second message, after "wait 0".
    expect(reply).toContain('This is message 2 of our conversation; before this you said: "wait 0".');

    const versions = ConversationVersions.parse((await h.api('GET', h.path(id, '/versions'))).body).versiones;
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ id: body.version.id, desde: 2 });
  });

  it('edits in place, and a rewind further back carries the versions inside it', async () => {
    const id = await h.conversation();
    await turn(id, 'apples are red');
    await turn(id, 'pears are green');
    expect((await h.api('POST', h.path(id, '/rewind'), { hasta: 2 })).status).toBe(200);
    await turn(id, 'plums are purple');
    const edited = (await messages(id)).at(-1)!.content;
    expect(edited).toContain('before this you said: "apples are red".');
    expect(edited).not.toContain('pears');

    expect((await h.api('POST', h.path(id, '/rewind'), { hasta: 0 })).status).toBe(200);
    expect(await messages(id)).toHaveLength(0);
    const versions = ConversationVersions.parse((await h.api('GET', h.path(id, '/versions'))).body).versiones;
    // The version at 2 went inside the one at 0 (kept there), so only the one at 0 is listed.
    expect(versions.map((v) => [v.desde, v.mensajes.length])).toEqual([[0, 4]]);
    await turn(id, 'figs are sweet');
    expect((await messages(id)).at(-1)!.content).toContain('This is the first message of our conversation.');
  });

  it('refuses while a reply runs (409 turno_en_curso), a point past the end, a bad body, another person', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const running = await h.send(id, { content: 'wait 3' });
    const refused = await h.api('POST', h.path(id, '/rewind'), { hasta: 0 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'turno_en_curso' });
    expect(typeof refused.body.detalle).toBe('string');
    await stream.untilDone(running.body.turnId as string);
    stream.close();

    const past = await h.api('POST', h.path(id, '/rewind'), { hasta: 2 });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ error: 'body_invalido' });
    expect((await h.api('POST', h.path(id, '/rewind'), { hasta: -1 })).status).toBe(400);
    expect((await h.api('POST', h.path(id, '/rewind'), {})).status).toBe(400);
    const stranger = (await signIn(h.service, { email: 'rewind-stranger@example.test' })).access_token;
    expect((await h.api('POST', h.path(id, '/rewind'), { hasta: 0 }, stranger)).status).toBe(404);
    expect((await h.api('GET', h.path(id, '/versions'), undefined, stranger)).status).toBe(404);
    expect(await messages(id)).toHaveLength(2);
  });
});
