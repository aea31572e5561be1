/**
 * A server whose listing carries no checksum and which cannot send files back (the spec's own
 * routes only) hides an agent's edit that kept a file's size: the sync cannot tell whether the
 * agent changed a file before it replaces or deletes it there. Such writes are said once, plainly,
 * before they go; or, when the person asked for it (`--confirm-overwrites`), held and listed.
 */
import type { RemoteSide } from './remote-side';
import type { SkippedPath, SyncAction } from './sync-plan-types';

/** The notice's id: said once per run (a reporter prints each id once). */
export const uncheckedNoticeId = 'unchecked-overwrite';

type Overwrite = Extract<SyncAction, { type: 'upload' | 'delete-remote' }>;

/** Whether the action replaces or deletes an agent-side file whose changes this server cannot show. */
function unchecked(action: SyncAction, remote: RemoteSide): action is Overwrite {
  if (action.type !== 'upload' && action.type !== 'delete-remote') return false;
  const entry = action.remote;
  return entry !== undefined && entry.sha256 === undefined && !remote.canRead(entry.path);
}

/**
 * Splits the plan's unchecked writes out when they are to be held; otherwise names the first one
 * for the notice.
 */
export function screenUnchecked(
  actions: SyncAction[],
  remote: RemoteSide,
  hold: boolean,
): { actions: SyncAction[]; held: SkippedPath[]; first?: Overwrite } {
  const found = actions.filter((action): action is Overwrite => unchecked(action, remote));
  if (found.length === 0) return { actions, held: [] };
  if (!hold) return { actions, held: [], first: found[0] };
  return {
    actions: actions.filter((action) => !found.includes(action as Overwrite)),
    held: found.map((action) => ({ path: action.path, reason: 'unchecked' })),
  };
}

/** The notice, before the first unchecked write of a run goes out. */
export function uncheckedWords(action: Overwrite): string {
  const what = action.type === 'delete-remote' ? 'deleting it there' : 'sending your version over it';
  return `Can't tell whether the agent changed ${action.path} since the last sync: this server lists no checksums and can't send files back, so an edit that kept the size is invisible. AgentDesk is ${what}; the same goes for other such files.`;
}
