/**
 * The service killed with SIGKILL, or stopped with SIGTERM, in the middle of a turn (a real child process),
 * then started again on the same port and data: the turn it cannot continue ends as `error`, and whoever
 * subscribes afterwards, with or without Last-Event-ID (of the turn, or of what the stream said last), is
 * told so and sees the turn's `done`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SERVICE_RESTARTED_MESSAGE,
  SERVICE_STOPPED_MESSAGE,
} from '../../../../src/service/turns/restart-recovery';
import { ensurePerson, firstAgentId, signIn, startTestService } from '../../../support/local-service';
import { freePort, startServiceProcess, type ServiceProcess } from '../../../support/service-process';
import { openEvents } from '../../../support/sse';
import { testStore } from '../../../support/test-store';

const running: ServiceProcess[] = [];
let dataDir = '';
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.kill('SIGTERM')));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** An account, a token that survives restarts (it is in the service's database) and the first agent. */
async function prepareAccount(dir: string): Promise<{ token: string; agentId: string }> {
  const service = await startTestService({ dataDir: dir });
  try {
    await ensurePerson(service);
    const token = (await signIn(service)).access_token;
    return { token, agentId: await firstAgentId(service, token) };
  } finally {
    await service.close();
  }
}

describe('a service restart in the middle of a turn', { timeout: 120_000 }, () => {
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`after ${signal}, closes the turn as an error and replays that ending to every subscriber`, async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-restart-'));
      const { token, agentId } = await prepareAccount(dataDir);
      const port = await freePort();
      const first = await startServiceProcess({ port, dataDir });
      running.push(first);
      const created = await fetch(`${first.url}/api/v2/me/agents/${agentId}/conversations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      });
      const conversationId = ((await created.json()) as { id: string }).id;
      const path = `/api/v2/me/agents/${agentId}/conversations/${conversationId}`;
      // One client follows the turn as the service goes down; another had left before.
      const following = await openEvents(`${first.url}${path}/events`, token);
      const sent = await fetch(`${first.url}${path}/messages`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: 'wait 30' }),
      });
      const { turnId } = (await sent.json()) as { turnId: string };
      await following.nextNamed('tool', (d) => d.status === 'in_progress');
      const lastSeen = following.events.at(-1)!.id!;

      await first.kill(signal);
      following.close();
      const followedTo = following.events.at(-1)!.id!;
      const second = await startServiceProcess({ port, dataDir });
      running.push(second);

      // Reconnecting with the last id each saw, and a new subscriber with none, told until the next turn
      // begins; but on PostgreSQL a close's own events are kept, and a new subscriber is told the conversation
      // is idle, as the spec says of a closed turn.
      const newcomer = testStore() === 'postgres' && signal === 'SIGTERM' ? [] : [undefined];
      for (const lastEventId of [followedTo, lastSeen, ...newcomer]) {
        const after = await openEvents(
          `${second.url}${path}/events`,
          token,
          lastEventId ? { lastEventId } : {},
        );
        const error = await after.nextNamed('error');
        // The close's own words when PostgreSQL kept its events, else the start's.
        expect([SERVICE_RESTARTED_MESSAGE, SERVICE_STOPPED_MESSAGE]).toContain(error.data.message);
        expect(error.data.turnId).toBe(turnId);
        expect((await after.next()).data).toEqual({ turnId, estado: 'error' });
        expect((await after.next()).data).toEqual({ reposo: true });
        after.close();
      }
      const thread = await fetch(`${second.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      const body = (await thread.json()) as { ultimoTurno: { turnId: string; estado: string } };
      expect(body.ultimoTurno).toMatchObject({ turnId, estado: 'error' });

      // Told once on the file store: a later restart has nothing more to tell about it (PostgreSQL keeps
      // the events themselves for a while, cluster/event-pruning.ts).
      if (testStore() === 'postgres') return;
      await second.kill('SIGTERM');
      const third = await startServiceProcess({ port, dataDir });
      running.push(third);
      const later = await openEvents(`${third.url}${path}/events`, token, { lastEventId: lastSeen });
      expect((await later.next()).data).toEqual({ reposo: true });
      later.close();
    });
  }
});
