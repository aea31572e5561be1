import type { Migration } from './types';

/**
 * Conversations, their messages (Mensaje), turns with their state, the idempotency record of
 * POST messages, scheduled turns and public sharing.
 */
export const conversations002: Migration = {
  id: '002_conversations',
  sql: `
CREATE TABLE conversations (
  id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  person_id TEXT NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  title TEXT,
  -- Chosen with POST model; applies from the next turn.
  model TEXT,
  -- Set while shared; cleared by DELETE share so the public page answers 404.
  share_slug TEXT UNIQUE,
  created_at INTEGER NOT NULL,
  updated_at INTEGER,
  archived_at INTEGER
);
CREATE INDEX conversations_agent ON conversations(agent_id, archived_at);

CREATE TABLE messages (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  turn_id TEXT,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  content TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX messages_conversation ON messages(conversation_id, seq);

CREATE TABLE turns (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL,
  person_id TEXT NOT NULL,
  -- Who commissioned the turn (an OAuth grant family, or 'programado'): the only one who may cancel or replace it.
  requester TEXT NOT NULL,
  estado TEXT NOT NULL CHECK (estado IN ('queued', 'running', 'done', 'error', 'stopped')),
  -- Time of the last state change (TurnoResumen.at).
  at INTEGER NOT NULL,
  tokens INTEGER NOT NULL DEFAULT 0,
  UNIQUE (conversation_id, turn_id)
);
CREATE INDEX turns_person ON turns(person_id);

-- Idempotency of POST messages: the first answer given to each caller-chosen turnId.
CREATE TABLE turn_requests (
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  request_id TEXT NOT NULL,
  accepted TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (conversation_id, request_id)
);

-- Pending scheduled turns; a cancelled or finished one is deleted.
CREATE TABLE scheduled_turns (
  id TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  prompt TEXT NOT NULL,
  due_at INTEGER NOT NULL,
  repeat_min REAL,
  until INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX scheduled_turns_conversation ON scheduled_turns(conversation_id);
`,
};
