/** What is said when a disk is full (issue 38), in the words the service, the app and the CLI all use. */

/** "The disk holding <what> (<where>) is full.": names the disk by what the person knows is on it. */
export function diskFullWords(what: string, where: string): string {
  return `The disk holding ${what} (${where}) is full.`;
}

/** The sync's pause on a full disk: which disk, what waits, and that it goes on by itself. */
export function syncDiskFullWords(disk: FullDisk, waiting: number): string {
  const changes = `${waiting} ${waiting === 1 ? 'change waits' : 'changes wait'}`;
  return (
    `${diskFullWords(disk.what, disk.where)} Sync is paused and ${changes}; nothing was deleted, and sync ` +
    'goes on by itself once there is space.'
  );
}

/** "There is space again on the disk holding <what> (<where>)", the end of `diskFullWords`. */
function spaceAgainWords(what: string, where: string): string {
  return `There is space again on the disk holding ${what} (${where})`;
}

/** Said once when the disk that paused the sync has space again. */
export function syncSpaceAgainWords(disk: FullDisk): string {
  return `${spaceAgainWords(disk.what, disk.where)}; sync goes on.`;
}

/** The app's chat memory could not write: which disk, what is not kept meanwhile, and that nothing is lost. */
export function memoryDiskFullWords(where: string): string {
  return (
    `${diskFullWords('the chat memory', where)} New replies are not kept on this computer until there is ` +
    'space; they are safe on the server, and the chat memory takes them by itself once there is space.'
  );
}

/** Said (in the log) when the chat memory's writes succeed again. */
export function memorySpaceAgainWords(where: string): string {
  return `${spaceAgainWords('the chat memory', where)}.`;
}

/** A disk that filled, named by what it holds ("the sync folder") and where. */
export interface FullDisk {
  what: string;
  where: string;
}
