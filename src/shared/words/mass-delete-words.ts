/** What a sync paused by its mass-delete guard would do, in the words the app and the CLI both show. */
export function massDeleteWords(pending: {
  side: 'local' | 'remote';
  deletes: number;
  total: number;
  recent?: number;
}): string {
  const files = pending.total === 1 ? 'file' : 'files';
  const where = pending.side === 'remote' ? "from the agent's files" : 'from this folder';
  const sentence = `This sync would delete ${pending.deletes} of ${pending.total} ${files} ${where}`;
  // A folder deleted file by file: the first ones went before the guard could see it was one removal.
  return pending.recent
    ? `${sentence}, after ${pending.recent} deleted one after another in the last minute.`
    : `${sentence}.`;
}
