import type { Migration } from './types';

/**
 * For a service reachable from the internet: failed sign-ins kept in the database (so a restart or a second
 * process does not give a guesser fresh tries), and one-time invitations to create an account.
 */
export const publicServer005: Migration = {
  id: '005_public_server',
  sql: `
CREATE TABLE sign_in_failures (
  key_hash TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  wait_until INTEGER NOT NULL,
  last_at INTEGER NOT NULL
);
CREATE INDEX sign_in_failures_last ON sign_in_failures(last_at);

CREATE TABLE invites (
  code_hash TEXT PRIMARY KEY,
  email TEXT NOT NULL COLLATE NOCASE,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  created_at INTEGER NOT NULL
);
`,
};
