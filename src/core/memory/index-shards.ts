import type { MemoryDatabase } from './memory-database';

/**
 * The search index is kept in shards: FTS5 tables of at most about SHARD_CHARS of text each. New text is
 * indexed into the newest shard only; once that holds SHARD_CHARS, a new empty one takes its place and the
 * full one is only read (and changed when its messages are). FTS5's merges grow with the table they
 * merge: a merge step, which can only stop between two terms and drops its input segments when a level
 * is done, took up to 40 ms of CPU storing 500,000 messages into an index of 1,000,000, and 13 ms into an
 * empty one. A shard never grows past the size an empty index had there, so neither does a merge step.
 *
 * Shard 0 is `parts_fts` (migrations 005 and 011), shard n is `parts_fts_<n>`. Which shard holds a span is
 * `message_spans.shard`; `index_shards` lists the shards and how much text the newest holds. The triggers
 * that index a message as it is written name the newest shard, so they are written again (here, not in a
 * migration) whenever a shard is added.
 */

/** Text (characters) a shard takes before a new one is started: about 200,000 messages of 160 characters. */
export const SHARD_CHARS = 32_000_000;

/** As migration 005 made `parts_fts`. */
const FTS_OPTIONS = `content, content = 'span_texts', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 8'`;

/** Shard sizes other than SHARD_CHARS, per database (tests use small ones). */
const shardLimits = new WeakMap<MemoryDatabase, number>();

export function setShardChars(db: MemoryDatabase, chars: number): void {
  shardLimits.set(db, chars);
}

export function shardTable(n: number): string {
  return n === 0 ? 'parts_fts' : `parts_fts_${n}`;
}

/** Every shard's number, newest first. */
export function shardNumbers(db: MemoryDatabase): number[] {
  return (db.prepare('SELECT n FROM index_shards ORDER BY n DESC').all() as { n: number }[]).map((r) => r.n);
}

/** The shard new text goes to. */
export function newestShard(db: MemoryDatabase): number {
  return (db.prepare('SELECT max(n) AS n FROM index_shards').get() as { n: number }).n;
}

/**
 * Counts what was indexed since the last count into the newest shard; when that holds the shard's size,
 * starts a new shard. Cheap: it reads only the spans written since. True when a shard was added.
 */
export function startShardWhenFull(db: MemoryDatabase): boolean {
  const limit = shardLimits.get(db) ?? SHARD_CHARS;
  const shard = db.prepare('SELECT n, chars, counted_to FROM index_shards ORDER BY n DESC LIMIT 1').get() as {
    n: number;
    chars: number;
    counted_to: number;
  };
  const added = db
    .prepare('SELECT coalesce(sum(length), 0) AS chars, max(id) AS last FROM message_spans WHERE id > ?')
    .get(shard.counted_to) as { chars: number; last: number | null };
  if (added.last === null) return false;
  const chars = shard.chars + added.chars;
  return db.transaction(() => {
    db.prepare('UPDATE index_shards SET chars = ?, counted_to = ? WHERE n = ?').run(
      chars,
      added.last,
      shard.n,
    );
    if (chars < limit) return false;
    const next = shard.n + 1;
    db.exec(`CREATE VIRTUAL TABLE ${shardTable(next)} USING fts5 (${FTS_OPTIONS})`);
    setMergeSettings(db, shardTable(next));
    db.prepare('INSERT INTO index_shards (n, chars, counted_to) VALUES (?, 0, ?)').run(next, added.last);
    writeIndexTriggers(db);
    return true;
  })() as boolean;
}

/** Back to shard 0 alone, empty (every message was deleted). */
export function resetShards(db: MemoryDatabase): void {
  db.transaction(() => {
    for (const n of shardNumbers(db)) if (n > 0) db.exec(`DROP TABLE ${shardTable(n)}`);
    db.exec('DELETE FROM index_shards WHERE n > 0');
    db.exec('UPDATE index_shards SET chars = 0, counted_to = 0');
    writeIndexTriggers(db);
    db.exec("INSERT INTO parts_fts (parts_fts) VALUES ('delete-all')");
  })();
}

/** FTS5's merging within writes off (index-merge.ts); a whole-level merge only past `crisis` segments. */
export function setMergeSettings(db: MemoryDatabase, table: string, crisis = 64): void {
  db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('automerge', 0)`).run();
  // FTS5 takes only an integer here, and a bound JavaScript number arrives as a real: the constant is written in.
  db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('crisismerge', ${Math.trunc(crisis)})`).run();
}

/**
 * Migration 006's triggers, for the shards there are: a message written is indexed into the newest shard,
 * a message deleted or changed is taken out of whichever shards hold its spans.
 */
function writeIndexTriggers(db: MemoryDatabase): void {
  const shards = shardNumbers(db);
  const newest = shards[0]!;
  const unindex = shards
    .map((n) => {
      const table = shardTable(n);
      return `INSERT INTO ${table} (${table}, rowid, content)
          SELECT 'delete', id, substr(old.content, start + 1, length) FROM message_spans
          WHERE message_id = old.id AND shard = ${n};`;
    })
    .join('\n        ');
  const index = `INSERT INTO message_spans (message_id, start, length, shard)
          SELECT new.id, 0, length(new.content), ${newest} WHERE length(new.content) <= 16384;
        INSERT INTO ${shardTable(newest)} (rowid, content)
          SELECT id, new.content FROM message_spans WHERE message_id = new.id;
        INSERT INTO index_queue (message_id, next_from) SELECT new.id, 0 WHERE length(new.content) > 16384;`;
  const forget = `${unindex}
        DELETE FROM message_spans WHERE message_id = old.id;
        DELETE FROM index_queue WHERE message_id = old.id;`;
  db.exec(`
      DROP TRIGGER messages_index_insert;
      DROP TRIGGER messages_unindex_delete;
      DROP TRIGGER messages_unindex_update;
      DROP TRIGGER messages_index_update;
      CREATE TRIGGER messages_index_insert AFTER INSERT ON messages BEGIN
        ${index}
      END;
      CREATE TRIGGER messages_unindex_delete BEFORE DELETE ON messages BEGIN
        ${forget}
      END;
      CREATE TRIGGER messages_unindex_update BEFORE UPDATE OF content ON messages BEGIN
        ${forget}
      END;
      CREATE TRIGGER messages_index_update AFTER UPDATE OF content ON messages BEGIN
        ${index}
      END;
  `);
}
