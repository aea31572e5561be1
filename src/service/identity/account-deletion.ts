import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';

/**
 * An area's part in deleting an account (DELETE /api/v2/me). Areas register one at start:
 * `blocker` may refuse (answer 409), `remove` deletes the area's own data (machines, conversations, files),
 * `deleted` lets go of what the area keeps in memory of the person, once their rows are gone (so a request of
 * theirs made meanwhile cannot keep it again).
 * Database rows that reference `agents`/`persons` with ON DELETE CASCADE go away on their own.
 */
export interface AccountDeletionParticipant {
  name: string;
  /** A plain sentence saying why the account cannot be deleted now, or null. */
  blocker?(personId: string): string | null | Promise<string | null>;
  remove?(personId: string, agentIds: readonly string[]): void | Promise<void>;
  deleted?(personId: string): void;
}

export type AccountDeletionResult = { ok: true } | { ok: false; blocker: string };

export function createAccountDeletion(db: ServiceDatabase) {
  const participants = new Set<AccountDeletionParticipant>();
  const agentIds = prepare<{ id: string }>(db, 'SELECT id FROM agents WHERE person_id = ?');
  const deletePerson = prepare(db, 'DELETE FROM persons WHERE id = ?');

  return {
    register(participant: AccountDeletionParticipant): () => void {
      participants.add(participant);
      return () => participants.delete(participant);
    },
    async deleteAccount(personId: string): Promise<AccountDeletionResult> {
      for (const participant of participants) {
        const blocker = await participant.blocker?.(personId);
        if (blocker) return { ok: false, blocker };
      }
      const agents = (await agentIds.all(personId)).map((row) => row.id);
      for (const participant of participants) await participant.remove?.(personId, agents);
      // Cascades to agents, agent tokens, OAuth tokens, codes and browser sessions.
      await deletePerson.run(personId);
      for (const participant of participants) participant.deleted?.(personId);
      return { ok: true };
    },
  };
}

export type AccountDeletion = ReturnType<typeof createAccountDeletion>;
