import type { ServiceDatabase } from '../db/database';
import type { ConversationRow } from './conversation-store';

/**
 * Archived conversations (our extension): listed, most recently archived first, and brought back. What
 * archiving dropped (the public link, the scheduled turns) stays dropped.
 */
export function createArchivedStore(db: ServiceDatabase) {
  const q = {
    list: db.prepare(
      `SELECT * FROM conversations WHERE agent_id = ? AND archived_at IS NOT NULL
       ORDER BY archived_at DESC, rowid DESC`,
    ),
    restore: db.prepare(
      'UPDATE conversations SET archived_at = NULL WHERE id = ? AND agent_id = ? AND archived_at IS NOT NULL',
    ),
  };
  return {
    list(agentId: string): ConversationRow[] {
      return q.list.all(agentId) as ConversationRow[];
    },
    /** Whether it was an archived conversation of that agent (and now is not). */
    restore(agentId: string, id: string): boolean {
      return q.restore.run(id, agentId).changes > 0;
    },
  };
}
export type ArchivedStore = ReturnType<typeof createArchivedStore>;
