/**
 * `agentdesk sync resolve` while another process (the app, or `agentdesk sync` in another
 * terminal) holds the folder. Only the holder may touch the folder and the agent, so the choice
 * is handed to it through the folder's shared state, and this waits for its answer.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { FolderRecords, folderOwner, type ConflictChoice, type FolderBusyError } from '../core/sync';
import { syncExit, type SyncFolder } from './sync-setup';
import type { CliIo } from './terminal';

export interface HandOverTiming {
  /** How long the holder gets to settle it (a download or upload of up to 10 MB included). */
  timeoutMs: number;
  pollMs: number;
}

const defaultTiming: HandOverTiming = { timeoutMs: 60_000, pollMs: 200 };

export async function askHolderToResolve(
  where: SyncFolder,
  path: string,
  choice: ConflictChoice,
  busy: FolderBusyError,
  io: CliIo,
  timing: HandOverTiming = defaultTiming,
): Promise<number> {
  const records = new FolderRecords(where.stateFile);
  try {
    const conflict = records.conflictAt(path);
    if (!conflict) {
      io.err(`${path} has no open conflict. See them with: agentdesk sync conflicts ${where.root}\n`);
      return syncExit.error;
    }
    const { who, pid } = busy.owner;
    const id = records.askHolder(conflict.key, choice);
    io.out(`${who} (process ${pid}) syncs this folder: it settles ${conflict.path} now.\n`);
    // On the monotonic clock: a clock set back or forward meanwhile neither stretches nor ends the wait.
    const deadline = performance.now() + timing.timeoutMs;
    for (;;) {
      const answer = records.answerOf(id);
      if (answer?.resolved) {
        io.out(`Resolved ${conflict.path}: kept ${choice === 'both' ? 'both versions' : choice}.\n`);
        return syncExit.ok;
      }
      if (answer) {
        io.err(`${answer.message}\n`);
        return syncExit.conflicts;
      }
      const gone = folderOwner(where.stateFile)?.pid !== pid;
      if (gone || performance.now() > deadline) {
        records.withdraw(id);
        io.err(
          gone
            ? `${who} (process ${pid}) stopped before settling ${conflict.path}: run this command again.\n`
            : `${who} (process ${pid}) did not settle ${conflict.path} within ${timing.timeoutMs / 1000} s; it is still open.\n`,
        );
        return syncExit.error;
      }
      await sleep(timing.pollMs);
    }
  } finally {
    records.close();
  }
}
