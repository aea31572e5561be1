import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ArchivedConversations,
  ConversationResponse,
  ConversationsResponse,
} from '../../../../src/shared/api';
import { firstAgentId, signIn } from '../../../support/local-service';
import { createHarness, type Harness } from './harness';

// Our archived-conversations extension over real HTTP with the real demo agent: an archived conversation
// is listed with when it was archived, comes back with its messages, and only the agent's own can.

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

const archivedPath = () => `/api/v2/me/agents/${h.agentId}/archived-conversations`;
const archived = async () =>
  ArchivedConversations.parse((await h.api('GET', archivedPath())).body).conversaciones;
const live = async () => ConversationsResponse.parse((await h.api('GET', h.path())).body).conversaciones;

describe('archived conversations (our extension)', () => {
  it('lists what DELETE archived and brings it back with its messages', async () => {
    const id = await h.conversation();
    const stream = await h.events(id);
    const sent = await h.send(id, { content: 'keep this thought' });
    await stream.untilDone(sent.body.turnId as string);
    stream.close();
    await h.api('PATCH', h.path(id), { title: 'Worth keeping' });
    expect((await h.api('DELETE', h.path(id))).status).toBe(200);

    expect((await live()).map((c) => c.id)).not.toContain(id);
    const [item] = (await archived()).filter((c) => c.id === id);
    expect(item).toMatchObject({ id, titulo: 'Worth keeping', ultimoTurno: { estado: 'done' } });
    expect(Date.parse(item!.archivada)).toBeGreaterThan(Date.now() - 60_000);

    const restored = await h.api('POST', `${archivedPath()}/${id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({ id, restaurada: true });
    expect((await live()).map((c) => c.id)).toContain(id);
    expect((await archived()).map((c) => c.id)).not.toContain(id);
    const thread = ConversationResponse.parse((await h.api('GET', h.path(id))).body);
    expect(thread.messages[0]?.content).toBe('keep this thought');
  });

  it('404 for a live conversation, an unknown one, and a second restore', async () => {
    const id = await h.conversation();
    expect((await h.api('POST', `${archivedPath()}/${id}/restore`)).status).toBe(404);
    expect((await h.api('POST', `${archivedPath()}/nope/restore`)).status).toBe(404);
    await h.api('DELETE', h.path(id));
    expect((await h.api('POST', `${archivedPath()}/${id}/restore`)).status).toBe(200);
    expect((await h.api('POST', `${archivedPath()}/${id}/restore`)).status).toBe(404);
  });

  it('another person cannot list or bring back my archived conversation, by my agent or by theirs', async () => {
    const id = await h.conversation();
    await h.api('DELETE', h.path(id));
    const stranger = (await signIn(h.service, { email: 'archive-stranger@example.test' })).access_token;
    const theirAgent = await firstAgentId(h.service, stranger);
    const theirs = `/api/v2/me/agents/${theirAgent}/archived-conversations`;
    for (const target of [`${archivedPath()}/${id}/restore`, `${theirs}/${id}/restore`]) {
      const answer = await h.api('POST', target, undefined, stranger);
      expect(answer.status, target).toBe(404);
      expect(answer.body).toMatchObject({ error: 'not_found' });
    }
    expect((await h.api('GET', archivedPath(), undefined, stranger)).status).toBe(404);
    const listed = await h.api('GET', theirs, undefined, stranger);
    expect(JSON.stringify(listed.body)).not.toContain(id);
    expect((await archived()).map((c) => c.id)).toContain(id);
  });
});
