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
];
