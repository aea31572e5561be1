import type { Migration } from './types';

/**
 * Try turns (`POST /agents/{id}/try`) have no conversation, so they are not in `turns`; the spec has
 * them consume the allowance like any turn, so each is recorded here with its tokens.
 */
export const tryTurns004: Migration = {
  id: '004_try_turns',
  sql: `
CREATE TABLE try_turns (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  person_id TEXT NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL,
  tokens INTEGER NOT NULL DEFAULT 0,
  at INTEGER NOT NULL
);
CREATE INDEX try_turns_person ON try_turns(person_id);
`,
};
