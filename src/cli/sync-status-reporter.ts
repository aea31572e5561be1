/** What `agentdesk sync` prints while it runs: progress, new conflicts and skips, errors and pauses. */
import { uncheckedNoticeId, type SkipReason, type SyncStatus } from '../core/sync';
import type { CliIo } from './terminal';
import { terminalLine } from './terminal-text';

export const skipWords: Record<SkipReason, string> = {
  'too-large': 'too large',
  symlink: 'a symlink, never followed',
  'invalid-name': 'a name the other side cannot take',
  'upload-only': 'this server cannot send it back (upload-only)',
  'name-clash': 'another file has the same name but for letter case or Unicode form',
  empty: 'empty: the agent cannot store an empty file',
  'outside-layout': 'outside the layout (instructions.md, mcp.json, skills/<name>/, work/ or knowledge/)',
  'looks-like-copy': 'named like a conflict copy the sync did not make; rename it to sync it',
  unchecked:
    "held: this server can't show whether the agent changed it; run without --confirm-overwrites to send yours",
};

/** What the person can do about writes the sync cannot check (after the engine's notice). */
const uncheckedAdvice =
  ' To hold such changes instead, run with --confirm-overwrites; or keep the folder upload-only: edit only your own files in work/ and let the agent change its own.';

/** A path as it can be shown in a terminal: control characters (a hostile name's NUL) escaped. */
const printable = terminalLine;

/** Prints what changed in the status: a cycle's work, new conflicts and skips, errors and pauses. */
export function statusReporter(io: CliIo, { watching = false } = {}): (status: SyncStatus) => void {
  const seenConflicts = new Set<string>();
  const seenSkips = new Set<string>();
  const seenNotices = new Set<string>();
  let lastMessage: string | undefined;
  let limitationShown = false;
  let unreachableShown: string | undefined;
  let announcedTotal = 0;
  let lastTenth = 0;
  return (status) => {
    if (status.limitation && !limitationShown) {
      limitationShown = true;
      io.out(`Note: ${status.limitation}\n`);
    }
    if (status.state === 'syncing' && status.total > 0) {
      if (status.done === 0 && announcedTotal !== status.total) {
        announcedTotal = status.total;
        lastTenth = 0;
        io.out(`Syncing ${status.total} change${status.total === 1 ? '' : 's'}…\n`);
      }
      // Long syncs show progress every tenth, short ones only their end.
      const tenth = Math.floor((status.done / status.total) * 10);
      if (status.total >= 50 && tenth > lastTenth && status.done < status.total) {
        lastTenth = tenth;
        io.out(`  ${status.done} of ${status.total}\n`);
      }
    }
    if (status.state === 'idle' && announcedTotal > 0) {
      io.out(`In step at ${new Date(status.lastSyncAt ?? Date.now()).toLocaleTimeString()}.\n`);
      announcedTotal = 0;
    }
    for (const conflict of status.conflicts) {
      const id = `${conflict.key} ${conflict.at}`;
      if (seenConflicts.has(id)) continue;
      seenConflicts.add(id);
      io.out(
        `Conflict: ${conflict.path} changed on both sides. Yours stays; the agent's version is saved as ${conflict.remoteCopyPath}. Resolve it with: agentdesk sync resolve <folder> ${conflict.path} --keep mine|theirs|both (or in AgentDesk).\n`,
      );
    }
    for (const notice of status.notices ?? []) {
      if (seenNotices.has(notice.id)) continue;
      seenNotices.add(notice.id);
      io.out(`${printable(notice.text)}${notice.id === uncheckedNoticeId ? uncheckedAdvice : ''}\n`);
    }
    for (const skip of status.skipped) {
      const id = `${skip.path} ${skip.reason}`;
      if (seenSkips.has(id)) continue;
      seenSkips.add(id);
      io.out(`Not synced: ${printable(skip.path)} (${skipWords[skip.reason] ?? skip.reason})\n`);
    }
    // The server unreachable is said once when it starts (its return is a notice), not as an error.
    if (status.unreachable && unreachableShown !== status.unreachable.server && status.message)
      io.out(`${status.message}\n`);
    unreachableShown = status.unreachable?.server;
    const message =
      status.state === 'error' || status.state === 'paused' ? (status.message ?? status.state) : undefined;
    if (message && message !== lastMessage && !status.unreachable) {
      // A full disk pauses the sync until there is space (disk-full-pause.ts): not an error of the run.
      io.err(`${status.state === 'paused' || status.diskFull ? 'Paused' : 'Error'}: ${message}\n`);
      // The deletions wait for a word the person can only give by starting a run with the flag.
      if (status.pendingDeletes)
        io.err(
          watching
            ? 'To go ahead, stop this run (Ctrl-C) and start it again with --confirm-deletes.\n'
            : 'Run again with --confirm-deletes to go ahead.\n',
        );
    }
    // Said again only after the folder was in step in between, not on every cycle it lasts.
    if (status.state !== 'scanning' && status.state !== 'syncing') lastMessage = message;
  };
}
