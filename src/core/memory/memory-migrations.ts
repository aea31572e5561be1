/**
 * A table, not logic: the transcript store's schema steps as SQL text, in order. It is over 300 lines because
 * every released step stays here unchanged (a store made by any earlier step must still open); the code that
 * applies them is memory-database.ts's.
 */

/** One versioned step of the transcript store's schema; ids sort in the order they apply. */
export interface MemoryMigration {
  id: string;
  sql: string;
}

/**
 * The transcript store's schema, append-only: a released step never changes, a new need is a new step.
 * `messages` is the app's copy of each conversation's text (the server's history, plus turns seen live
 * until the next download replaces them); `turns` is the detail the API's history lacks.
 */
export const memoryMigrations: readonly MemoryMigration[] = [
  {
    id: '001_transcripts',
    sql: `
      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        title TEXT,
        updated_at INTEGER,
        history_synced_at INTEGER,
        history_version TEXT
      );
      CREATE INDEX conversations_by_agent ON conversations (agent_id);

      CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        conversation_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        role TEXT NOT NULL,
        content TEXT NOT NULL,
        at INTEGER NOT NULL,
        turn_id TEXT,
        UNIQUE (conversation_id, position)
      );
      CREATE INDEX messages_by_turn ON messages (conversation_id, turn_id);

      CREATE VIRTUAL TABLE messages_fts USING fts5 (
        content, content = 'messages', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
      );
      CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
      END;
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
      END;
      CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
        INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
      END;

      CREATE TABLE turns (
        conversation_id TEXT NOT NULL,
        turn_id TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        user_text TEXT,
        reply_text TEXT NOT NULL DEFAULT '',
        estado TEXT,
        last_event INTEGER NOT NULL DEFAULT 0,
        record TEXT NOT NULL,
        PRIMARY KEY (conversation_id, turn_id)
      );
      CREATE INDEX turns_by_start ON turns (conversation_id, started_at);

      CREATE TABLE attachments (
        conversation_id TEXT NOT NULL,
        turn_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        name TEXT NOT NULL,
        mime_type TEXT NOT NULL,
        size INTEGER NOT NULL,
        thumbnail TEXT,
        PRIMARY KEY (conversation_id, turn_id, idx)
      );
    `,
  },
  {
    id: '002_snapshots',
    sql: `
      CREATE TABLE snapshots (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
  {
    // Prefix indexes up to 8 characters: a typed prefix walks one index lazily and stops at the
    // result limit, where a longer prefix merged every matching term first (~20-80 ms at 200,000 messages).
    id: '003_fts_prefixes',
    sql: `
      DROP TABLE messages_fts;
      CREATE VIRTUAL TABLE messages_fts USING fts5 (
        content, content = 'messages', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 8'
      );
      INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
    `,
  },
  {
    // A message is indexed as parts of at most 16 KB: a short one by trigger as it is written, a longer
    // one later in slices (message-indexer.ts), from `index_from`, so a 1 MB reply never blocks the
    // host for the whole of its indexing. `index_from` is null once the message is fully indexed.
    id: '004_indexed_parts',
    sql: `
      DROP TRIGGER messages_fts_insert;
      DROP TRIGGER messages_fts_delete;
      DROP TRIGGER messages_fts_update;
      DROP TABLE messages_fts;
      ALTER TABLE messages ADD COLUMN index_from INTEGER;
      CREATE INDEX messages_to_index ON messages (id) WHERE index_from IS NOT NULL;

      CREATE TABLE message_parts (
        id INTEGER PRIMARY KEY,
        message_id INTEGER NOT NULL,
        content TEXT NOT NULL
      );
      CREATE INDEX message_parts_by_message ON message_parts (message_id);
      CREATE VIRTUAL TABLE parts_fts USING fts5 (
        content, content = 'message_parts', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 8'
      );
      CREATE TRIGGER parts_fts_insert AFTER INSERT ON message_parts BEGIN
        INSERT INTO parts_fts (rowid, content) VALUES (new.id, new.content);
      END;
      CREATE TRIGGER parts_fts_delete AFTER DELETE ON message_parts BEGIN
        INSERT INTO parts_fts (parts_fts, rowid, content) VALUES ('delete', old.id, old.content);
      END;

      CREATE TRIGGER messages_index_insert AFTER INSERT ON messages BEGIN
        INSERT INTO message_parts (message_id, content) SELECT new.id, new.content
          WHERE length(new.content) <= 16384;
        UPDATE messages SET index_from = 0 WHERE id = new.id AND length(new.content) > 16384;
      END;
      CREATE TRIGGER messages_index_delete AFTER DELETE ON messages BEGIN
        DELETE FROM message_parts WHERE message_id = old.id;
      END;
      CREATE TRIGGER messages_index_update AFTER UPDATE OF content ON messages BEGIN
        DELETE FROM message_parts WHERE message_id = old.id;
        INSERT INTO message_parts (message_id, content) SELECT new.id, new.content
          WHERE length(new.content) <= 16384;
        UPDATE messages SET index_from = 0 WHERE id = new.id AND length(new.content) > 16384;
      END;

      INSERT INTO message_parts (message_id, content)
        SELECT id, content FROM messages WHERE length(content) <= 16384;
      UPDATE messages SET index_from = 0 WHERE length(content) > 16384;
    `,
  },
  {
    // A message's text lives once, in messages.content: an indexed part is a span of it (start and length
    // in characters, as SQLite's substr counts them), and parts_fts reads the span's text through a view.
    // The turn no longer keeps a copy of its reply (it is in its record's events). Deleting or changing
    // a message takes its spans out of the index first, while its old text can still be read.
    id: '005_text_once',
    sql: `
      DROP TRIGGER messages_index_insert;
      DROP TRIGGER messages_index_delete;
      DROP TRIGGER messages_index_update;
      DROP TRIGGER parts_fts_insert;
      DROP TRIGGER parts_fts_delete;
      DROP TABLE parts_fts;
      DROP TABLE message_parts;
      ALTER TABLE turns DROP COLUMN reply_text;

      CREATE TABLE message_spans (
        id INTEGER PRIMARY KEY,
        message_id INTEGER NOT NULL,
        start INTEGER NOT NULL,
        length INTEGER NOT NULL
      );
      CREATE INDEX message_spans_by_message ON message_spans (message_id);
      CREATE VIEW span_texts AS
        SELECT s.id AS id, substr(m.content, s.start + 1, s.length) AS content
        FROM message_spans s JOIN messages m ON m.id = s.message_id;
      CREATE VIRTUAL TABLE parts_fts USING fts5 (
        content, content = 'span_texts', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 8'
      );

      CREATE TRIGGER messages_index_insert AFTER INSERT ON messages BEGIN
        INSERT INTO message_spans (message_id, start, length)
          SELECT new.id, 0, length(new.content) WHERE length(new.content) <= 16384;
        INSERT INTO parts_fts (rowid, content) SELECT id, new.content FROM message_spans WHERE message_id = new.id;
        UPDATE messages SET index_from = 0 WHERE id = new.id AND length(new.content) > 16384;
      END;
      CREATE TRIGGER messages_unindex_delete BEFORE DELETE ON messages BEGIN
        INSERT INTO parts_fts (parts_fts, rowid, content)
          SELECT 'delete', id, substr(old.content, start + 1, length) FROM message_spans WHERE message_id = old.id;
        DELETE FROM message_spans WHERE message_id = old.id;
      END;
      CREATE TRIGGER messages_unindex_update BEFORE UPDATE OF content ON messages BEGIN
        INSERT INTO parts_fts (parts_fts, rowid, content)
          SELECT 'delete', id, substr(old.content, start + 1, length) FROM message_spans WHERE message_id = old.id;
        DELETE FROM message_spans WHERE message_id = old.id;
      END;
      CREATE TRIGGER messages_index_update AFTER UPDATE OF content ON messages BEGIN
        INSERT INTO message_spans (message_id, start, length)
          SELECT new.id, 0, length(new.content) WHERE length(new.content) <= 16384;
        INSERT INTO parts_fts (rowid, content) SELECT id, new.content FROM message_spans WHERE message_id = new.id;
        UPDATE messages SET index_from = CASE WHEN length(new.content) > 16384 THEN 0 END WHERE id = new.id;
      END;

      INSERT INTO message_spans (message_id, start, length)
        SELECT id, 0, length(content) FROM messages WHERE length(content) <= 16384;
      INSERT INTO parts_fts (parts_fts) VALUES ('rebuild');
      UPDATE messages SET index_from = CASE WHEN length(content) > 16384 THEN 0 END;
    `,
  },
  {
    // Indexing progress moves out of `messages` into a small queue: SQLite rewrites a whole row, 1 MB of
    // text included, to change any column of it, so marking or advancing a long message's progress in
    // place cost 30-75 ms a step. `messages.index_from` stays, unused.
    id: '006_index_queue',
    sql: `
      CREATE TABLE index_queue (
        message_id INTEGER PRIMARY KEY,
        next_from INTEGER NOT NULL
      );
      INSERT INTO index_queue (message_id, next_from)
        SELECT id, index_from FROM messages WHERE index_from IS NOT NULL;
      UPDATE messages SET index_from = NULL WHERE index_from IS NOT NULL;
      DROP INDEX messages_to_index;

      DROP TRIGGER messages_index_insert;
      DROP TRIGGER messages_unindex_delete;
      DROP TRIGGER messages_unindex_update;
      DROP TRIGGER messages_index_update;
      CREATE TRIGGER messages_index_insert AFTER INSERT ON messages BEGIN
        INSERT INTO message_spans (message_id, start, length)
          SELECT new.id, 0, length(new.content) WHERE length(new.content) <= 16384;
        INSERT INTO parts_fts (rowid, content) SELECT id, new.content FROM message_spans WHERE message_id = new.id;
        INSERT INTO index_queue (message_id, next_from) SELECT new.id, 0 WHERE length(new.content) > 16384;
      END;
      CREATE TRIGGER messages_unindex_delete BEFORE DELETE ON messages BEGIN
        INSERT INTO parts_fts (parts_fts, rowid, content)
          SELECT 'delete', id, substr(old.content, start + 1, length) FROM message_spans WHERE message_id = old.id;
        DELETE FROM message_spans WHERE message_id = old.id;
        DELETE FROM index_queue WHERE message_id = old.id;
      END;
      CREATE TRIGGER messages_unindex_update BEFORE UPDATE OF content ON messages BEGIN
        INSERT INTO parts_fts (parts_fts, rowid, content)
          SELECT 'delete', id, substr(old.content, start + 1, length) FROM message_spans WHERE message_id = old.id;
        DELETE FROM message_spans WHERE message_id = old.id;
        DELETE FROM index_queue WHERE message_id = old.id;
      END;
      CREATE TRIGGER messages_index_update AFTER UPDATE OF content ON messages BEGIN
        INSERT INTO message_spans (message_id, start, length)
          SELECT new.id, 0, length(new.content) WHERE length(new.content) <= 16384;
        INSERT INTO parts_fts (rowid, content) SELECT id, new.content FROM message_spans WHERE message_id = new.id;
        INSERT INTO index_queue (message_id, next_from) SELECT new.id, 0 WHERE length(new.content) > 16384;
      END;
    `,
  },
  {
    // The agent list is kept in our words (shared/api/agent.ts), no longer as the wire's `{agentes, usuario}`
    // (issue 25): a list stored before is rewritten in place, so it still opens offline.
    id: '007_agent_list_words',
    sql: `
      UPDATE snapshots SET value = json_object(
        'agents', (SELECT json_group_array(json_object(
            'id', json_extract(a.value, '$.id'),
            'name', json_extract(a.value, '$.nombre'),
            'origin', json_extract(a.value, '$.origen'),
            'protocol', json_extract(a.value, '$.protocolo'),
            'connection', json(CASE json_extract(a.value, '$.conexion.tipo')
              WHEN 'acp' THEN json_object('kind', 'acp', 'host', json_extract(a.value, '$.conexion.host'),
                'token', json_extract(a.value, '$.conexion.token'))
              WHEN 'partner' THEN json_object('kind', 'partner',
                'agentId', json_extract(a.value, '$.conexion.agentId'),
                'token', json_extract(a.value, '$.conexion.token'))
            END),
            'needsToken', json(CASE WHEN json_extract(a.value, '$.necesitaToken') THEN 'true' ELSE 'false' END)
          )) FROM json_each(snapshots.value, '$.agentes') a),
        'user', json(json_extract(value, '$.usuario')))
      WHERE key = 'agents' AND json_valid(value) AND json_type(value, '$.agentes') = 'array';
    `,
  },
  {
    // A turn's end state in our word (TurnDetail.state); the wire's `estado` stays on the wire.
    id: '008_turn_state_word',
    sql: `ALTER TABLE turns RENAME COLUMN estado TO state;`,
  },
  {
    // A stored tool call's text in our word (ToolUpdate.detail), no longer the wire's `detalle`: the
    // memory keeps events as the app saw them, in our words, so old turns replay and export the same.
    id: '009_tool_detail_word',
    sql: `
      UPDATE turns SET record = json_set(record, '$.events', (
        SELECT json_group_array(json(CASE
            WHEN json_extract(e.value, '$.event') = 'tool' AND json_type(e.value, '$.data.detalle') IS NOT NULL
            THEN json_remove(json_set(e.value, '$.data.detail', e.value -> '$.data.detalle'), '$.data.detalle')
            ELSE e.value END))
        FROM (SELECT value FROM json_each(record, '$.events') ORDER BY key) e))
      WHERE json_valid(record) AND json_type(record, '$.events') = 'array' AND instr(record, '"detalle"') > 0;
    `,
  },
  {
    // An agent's connection token is no longer kept (shared/api/agent.ts): the stored agent list loses it.
    id: '010_agent_list_no_tokens',
    sql: `
      UPDATE snapshots SET value = json_set(value, '$.agents', (
        SELECT json_group_array(json(CASE WHEN json_type(a.value, '$.connection.token') IS NOT NULL
            THEN json_remove(a.value, '$.connection.token') ELSE a.value END))
        FROM (SELECT value FROM json_each(snapshots.value, '$.agents') ORDER BY key) a))
      WHERE key = 'agents' AND json_valid(value) AND json_type(value, '$.agents') = 'array';
    `,
  },
  {
    // The search index in shards (index-shards.ts): `parts_fts` is shard 0 and keeps what it holds, so
    // nothing is indexed again; a span records its shard. How much text the newest shard holds is counted
    // from here, so a store that already holds more than a shard starts a new one at its next write.
    // Migration 006's triggers stay right while shard 0 is the only one (a new span's shard is 0).
    id: '011_index_shards',
    sql: `
      ALTER TABLE message_spans ADD COLUMN shard INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE index_shards (
        n INTEGER PRIMARY KEY,
        chars INTEGER NOT NULL,
        counted_to INTEGER NOT NULL
      );
      INSERT INTO index_shards (n, chars, counted_to)
        SELECT 0, coalesce(sum(length), 0), coalesce(max(id), 0) FROM message_spans;
    `,
  },
];
