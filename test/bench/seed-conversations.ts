import { sql } from 'kysely';
import type { BrowserMode } from '../../src/browser/browser-mode';

export interface Seed {
  conversations: number;
  messagesEach: number;
  title(conversation: number): string;
  /** The text of message `m` (even: the person's, odd: the agent's) of conversation `c`. */
  text(c: number, m: number): string;
}

/**
 * Conversations for the first agent of the person signed in, written through the service's own
 * conversation store in one transaction (thousands of turns in seconds, as if had over the last month).
 * Conversation `c` is the (c+1)-th made, so the last one is the newest.
 */
export async function seedConversations(mode: BrowserMode, seed: Seed): Promise<void> {
  const service = mode.service();
  if (!service) throw new Error('the local service did not start');
  const { db } = service.context;
  const store = service.context.conversations.store;
  const agent = (await sql<{ id: string; person_id: string }>`SELECT id, person_id FROM agents`.execute(db))
    .rows[0];
  if (!agent) throw new Error('the person has no agent');
  const monthAgo = Date.now() - 30 * 24 * 3600_000;
  await db.transaction().execute(async (trx) => {
    for (let c = 0; c < seed.conversations; c++) {
      const start = monthAgo + c * 3 * 3600_000;
      const id = await store.create(agent.id, agent.person_id, start, trx);
      await store.titleIfEmpty(id, seed.title(c), trx);
      for (let m = 0; m < seed.messagesEach; m++) {
        const role = m % 2 === 0 ? 'user' : 'assistant';
        await store.addMessage(id, null, role, seed.text(c, m), start + m * 60_000, trx);
      }
    }
  });
}
