import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';
import type { ConversationRow } from './conversation-store';

/**
 * Archived conversations (our extension): listed, most recently archived first, and brought back. What
 * archiving dropped (the public link, the scheduled turns) stays dropped.
 */
export function createArchivedStore(db: ServiceDatabase) {
  const q = {
    list: prepare(
      db,
      `SELECT * FROM conversations WHERE agent_id = ? AND archived_at IS NOT NULL
       ORDER BY archived_at DESC, rowid DESC`,
    ),
    restore: prepare(
      db,
      'UPDATE conversations SET archived_at = NULL WHERE id = ? AND agent_id = ? AND archived_at IS NOT NULL',
    ),
  };
  return {
    async list(agentId: string): Promise<ConversationRow[]> {
      return (await q.list.all(agentId)) as ConversationRow[];
    },
    /** Whether it was an archived conversation of that agent (and now is not). */
    async restore(agentId: string, id: string): Promise<boolean> {
      return (await q.restore.run(id, agentId)).changes > 0;
    },
  };
}
export type ArchivedStore = ReturnType<typeof createArchivedStore>;
