import type pg from 'pg';

/**
 * Keeps `cluster_events` from growing without end. A stream replays only its conversation's last two turns
 * (the replay window, turns/event-log.ts), and follows live rows from the last one it got. So a row goes
 * once it is outside its conversation's window and either every live process has read it (each publishes
 * the last row all its streams had, `read_seq`) or it is older than `staleMs` (a stream that far behind is
 * stuck, and its client reads the conversation again); the rows of a deleted conversation go too.
 * Any process may run it: it is one statement, and running it twice deletes nothing more.
 */
export async function pruneEvents(
  pool: pg.Pool,
  options: { processId: string; readMark: number | null; staleMs: number },
): Promise<number> {
  await pool.query('UPDATE cluster_processes SET read_seq = $2 WHERE id = $1', [
    options.processId,
    options.readMark,
  ]);
  const pruned = await pool.query(
    `WITH marks AS (
       SELECT min(read_seq) AS bound FROM cluster_processes WHERE seen_until > now() AND read_seq IS NOT NULL),
     recent AS (
       SELECT conversation_id, turn_id FROM (
         SELECT conversation_id, turn_id,
                row_number() OVER (PARTITION BY conversation_id ORDER BY max(seq) DESC) AS n
         FROM cluster_events GROUP BY conversation_id, turn_id) AS ranked
       WHERE n <= 2)
     DELETE FROM cluster_events e
     WHERE NOT EXISTS (SELECT 1 FROM conversations c WHERE c.id = e.conversation_id)
        OR (NOT EXISTS (SELECT 1 FROM recent r WHERE r.conversation_id = e.conversation_id AND r.turn_id = e.turn_id)
            AND (e.seq <= COALESCE((SELECT bound FROM marks), e.seq)
                 OR e.written_at < now() - $1 * interval '1 millisecond'))`,
    [options.staleMs],
  );
  return pruned.rowCount ?? 0;
}
