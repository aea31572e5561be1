import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsxCommand } from '../../../support/tsx-command';
import { createHarness, type Harness } from './harness';

/**
 * An agent's own title for the conversation (ACP `session_info_update`, which the model agent sends
 * after its first reply) becomes the spec's `title` event and the conversation's `titulo`, in place
 * of the first line of the message; a title the person set is never replaced.
 */

const agent = fileURLToPath(new URL('../../../fixtures/titling-agent.ts', import.meta.url));
let h: Harness;

beforeAll(async () => {
  h = await createHarness({ config: { engines: { 'engine-b': { command: tsxCommand(agent) } } } });
});
afterAll(() => h?.close());

const titleOf = async (id: string) => {
  const list = await h.api<{ conversaciones: { id: string; titulo: string | null }[] }>('GET', h.path());
  return list.body.conversaciones.find((c) => c.id === id)?.titulo;
};

describe('an agent’s title', () => {
  it('names an untitled conversation when its first turn closes', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const res = await h.send(id, { content: 'help me plan a party for saturday', primerTurno: true });
    const events = await stream.untilDone(res.body.turnId as string);
    expect(events.filter((e) => e.event === 'title').map((e) => e.data)).toEqual([
      { title: 'Garden party plans' },
    ]);
    expect(await titleOf(id)).toBe('Garden party plans');
  });

  it('never replaces a title the person set', async () => {
    const id = await h.conversation();
    expect((await h.api('PATCH', h.path(id), { title: 'My own name' })).status).toBe(200);
    const stream = await h.events(id);
    const res = await h.send(id, { content: 'help me plan a party', primerTurno: true });
    const events = await stream.untilDone(res.body.turnId as string);
    expect(events.some((e) => e.event === 'title')).toBe(false);
    expect(await titleOf(id)).toBe('My own name');
  });
});
