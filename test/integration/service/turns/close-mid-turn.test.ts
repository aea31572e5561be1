/**
 * The service closed (`close()`, as the app and `npm run service` do on quit) while a turn runs: the close
 * takes no new turn, ends the running one as an error and waits for its writes before it closes the store.
 * Started again on the same data, the service has the turn's last record: its state and its reply so far.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ensurePerson, firstAgentId, signIn, startTestService } from '../../../support/local-service';
import { openEvents } from '../../../support/sse';

let dataDir = '';
afterEach(async () => {
  vi.restoreAllMocks();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('closing the service in the middle of a turn', { timeout: 90_000 }, () => {
  it('records the turn’s end before the store closes, and admits no turn while closing', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-close-'));
    const errors = vi.spyOn(console, 'error');
    const first = await startTestService({ dataDir });
    await ensurePerson(first);
    const token = (await signIn(first)).access_token;
    const agentId = await firstAgentId(first, token);
    const auth = { Authorization: `Bearer ${token}` };
    const created = await fetch(`${first.url}/api/v2/me/agents/${agentId}/conversations`, {
      method: 'POST',
      headers: auth,
    });
    const conversationId = ((await created.json()) as { id: string }).id;
    const path = `/api/v2/me/agents/${agentId}/conversations/${conversationId}`;
    const events = await openEvents(`${first.url}${path}/events`, token);
    const sent = await fetch(`${first.url}${path}/messages`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'wait 60' }),
    });
    const { turnId } = (await sent.json()) as { turnId: string };
    // The agent said its first words and now waits: the turn runs, with a reply so far.
    await events.nextNamed('tool', (d) => d.status === 'in_progress');
    events.close();

    await first.close();
    const manager = first.context.conversations.manager;
    expect(manager.activeTurns()).toBe(0);
    const late = await manager.submit({
      agentId,
      engine: 'engine-b',
      personId: 'anyone',
      conversationId,
      requester: 'late',
      turnId: 'late-turn',
      content: 'hello',
      permissionMode: 'auto',
    });
    expect(late).toEqual({ kind: 'draining' });
    const notRecorded = errors.mock.calls.filter((call) => String(call[0]).includes('not recorded'));
    expect(notRecorded).toEqual([]);

    const second = await startTestService({ dataDir });
    try {
      const thread = await fetch(`${second.url}${path}`, { headers: auth });
      expect(thread.status).toBe(200);
      const body = (await thread.json()) as {
        messages: { role: string; content: string }[];
        ultimoTurno: { turnId: string; estado: string };
      };
      expect(body.ultimoTurno).toMatchObject({ turnId, estado: 'error' });
      // The reply so far is the turn's last record: only the closing service could write it (a restart
      // marks an unfinished turn as an error, but knows nothing of its reply).
      expect(body.messages.map((m) => [m.role, m.content])).toEqual([
        ['user', 'wait 60'],
        ['assistant', expect.stringContaining('Waiting 60 seconds')],
      ]);
    } finally {
      await second.close();
    }
  });
});
