/** What is said when a damaged store was set aside (issue 38), in the words the app and the CLI both use. */

/** A store that failed its check at open: what was wrong with it, and the dated name it was moved to. */
export interface SetAside {
  problem: string;
  movedTo: string;
}

/** The app's chat memory (`transcripts.db`), set aside: a new one starts and the server fills it again. */
export function memorySetAsideWords({ problem, movedTo }: SetAside): string {
  return `The chat memory on this computer was damaged (${problem}). It was moved aside as ${movedTo} and a new one started; your conversations are read again from the server.`;
}

/** A synced folder's state, set aside: this sync compares both sides in full, as a first sync does. */
export function syncStateSetAsideWords({ problem, movedTo }: SetAside): string {
  return (
    `The sync's record of this folder was damaged (${problem}). It was moved aside as ${movedTo}, and this ` +
    'sync compares the folder and the agent’s files in full, as a first sync does: nothing is deleted on ' +
    'either side, and a file that differs keeps both versions.'
  );
}

/** The version history of a folder whose state was set aside: what it lists starts again from there. */
export function historySetAsideWords({ problem, movedTo }: SetAside, copies: string): string {
  return (
    `The sync's record of this folder was damaged (${problem}) and moved aside as ${movedTo}; the next sync ` +
    `compares the folder in full. Versions kept before that are no longer listed here; their copies stay in ${copies}.`
  );
}
