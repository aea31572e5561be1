import type { Migration } from './types';

/**
 * Two of our extensions (docs/extensions.md):
 * - conversation versions (POST .../{sessionId}/rewind): the messages a rewind cut off, from message
 *   `from_message` on, kept as JSON so the earlier version stays readable; `nested` holds the versions that
 *   had branched inside that tail, so a rewind further back loses none of them;
 * - approval rules (/approval-rules): an agent's standing answers to permission requests.
 */
export const versionsAndRules008: Migration = {
  id: '008_versions_and_rules',
  sql: `
CREATE TABLE conversation_versions (
  id TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  from_message INTEGER NOT NULL,
  messages TEXT NOT NULL,
  nested TEXT NOT NULL DEFAULT '[]',
  made_at INTEGER NOT NULL
);
CREATE INDEX conversation_versions_conversation ON conversation_versions(conversation_id, from_message);
CREATE TABLE approval_rules (
  id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  effect TEXT NOT NULL CHECK (effect IN ('allow', 'deny')),
  tool TEXT NOT NULL,
  folder TEXT,
  made_at INTEGER NOT NULL
);
CREATE INDEX approval_rules_agent ON approval_rules(agent_id, made_at);
`,
};
