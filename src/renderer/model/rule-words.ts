import type { ApprovalRuleView } from '../../shared/api';

/** What a rule's tool covers, in words: a tool call's kind as an activity, else the tool's own name. */
const kindActivities: Record<string, string> = {
  read: 'Reading files',
  edit: 'Editing files',
  delete: 'Deleting files',
  move: 'Moving files',
  search: 'Searching',
  execute: 'Running commands',
  fetch: 'Fetching from the web',
  think: 'Thinking tools',
};

export const ruleToolWords = (tool: string): string => kindActivities[tool] ?? tool;

/** Where a rule holds: "anywhere" or "in kb/notes". */
export const ruleScopeWords = (folder: string | null): string =>
  folder === null ? 'anywhere' : `in ${folder}`;

/** "Always allow" or "Always reject". */
export const ruleEffectWords = (rule: Pick<ApprovalRuleView, 'effect'>): string =>
  rule.effect === 'allow' ? 'Always allow' : 'Always reject';

/** The day a rule was made, as the person's locale writes dates. */
export const ruleDateWords = (madeAt: number): string =>
  new Date(madeAt).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
