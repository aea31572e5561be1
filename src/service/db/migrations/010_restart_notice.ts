import type { Migration } from './types';

/**
 * A turn the service's close ended (quit, SIGTERM) is marked, so the next start tells the conversation's
 * subscribers how it ended, as it does for a turn a killed run left open (turns/restart-recovery.ts):
 * 1 until that start has announced it, then 0.
 */
export const restartNotice010: Migration = {
  id: '010_restart_notice',
  sql: `
ALTER TABLE turns ADD COLUMN restart_notice INTEGER NOT NULL DEFAULT 0;
`,
};
