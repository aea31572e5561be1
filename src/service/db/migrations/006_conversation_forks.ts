import type { Migration } from './types';

/**
 * Forked conversations (our extension, POST .../{sessionId}/fork): which conversation each was forked
 * from, and how many of its first messages were carried over, so the agent is given them once, when it
 * opens a session for the fork.
 */
export const conversationForks006: Migration = {
  id: '006_conversation_forks',
  sql: `
CREATE TABLE conversation_forks (
  conversation_id TEXT PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
  forked_from TEXT NOT NULL,
  seed_messages INTEGER NOT NULL
);
`,
};
