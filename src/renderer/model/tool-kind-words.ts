/** Plain words for the agent's tool kinds; `other`, `switch_mode` and unknown kinds get no badge (undefined). */
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
