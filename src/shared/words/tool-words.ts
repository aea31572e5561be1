/** Plain words for a tool call, shared by the app and the CLI, so neither shows the wire's `in_progress` or `execute`.
 * The agent's tool kinds: `other`, `switch_mode` and unknown kinds get no badge (undefined). */
const kindWords: Record<string, string> = {
  read: 'Read',
  edit: 'Edit',
  delete: 'Delete',
  move: 'Move',
  search: 'Search',
  execute: 'Run',
  think: 'Think',
  fetch: 'Fetch',
};

/** The badge word for a tool call's kind, or undefined when the kind says nothing useful. */
export function toolKindWord(kind: string | undefined): string | undefined {
  return kind ? kindWords[kind] : undefined;
}

/**
 * The spec's tool statuses in plain words (`stopped` and `interrupted` are ours: a call left unfinished by a
 * reply the person stopped, or by one that ended in an error).
 */
const statusWords: Record<string, string> = {
  pending: 'Waiting',
  in_progress: 'Running',
  completed: 'Done',
  failed: 'Failed',
  stopped: 'Stopped',
  interrupted: 'Interrupted',
};

/** The word for a tool call's status; an unknown status is shown as it came. */
export function toolStatusWord(status: string): string {
  return statusWords[status] ?? status;
}
