import type { ApprovalRuleView } from '../../shared/api';
import type { PermissionOption } from './stream-event';

/**
 * Approvals that last (issue 39, item 2): which of an agent's rules answers a permission request, and with
 * which of the request's own options. Pure, so the matching is tested alone.
 */

/** What a request asks, as a rule names it: the tool call's kind (else the tool's name) and its path. */
export interface AskedPermission {
  tool: string;
  path?: string;
}

/** The rule that answers and the option it picks; none when no rule matches or no option fits its effect. */
export interface RuleAnswer {
  rule: ApprovalRuleView;
  optionId: string;
}

/** `a/./b/../c` as `a/c`, `\` as `/`, no trailing slash; null for a path that climbs above its start. */
export function normalPath(path: string): string | null {
  const absolute = /^([a-zA-Z]:)?[\\/]/.test(path);
  const out: string[] = [];
  for (const segment of path.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(segment);
  }
  return (absolute && !/^[a-zA-Z]:$/.test(out[0] ?? '') ? '/' : '') + out.join('/');
}

/** Whether `path` is `folder` or inside it (whole segments: `kb` holds `kb/a.md`, not `kbx/a.md`). */
export function isUnder(path: string, folder: string): boolean {
  const p = normalPath(path);
  const f = normalPath(folder);
  if (p === null || f === null) return false;
  if (f === '' || f === '/') return p.startsWith(f);
  return p === f || p.startsWith(`${f}/`);
}

/** The folders a rule can be narrowed to for a request on `path`, nearest first (`kb/notes`, `kb`). */
export function folderChoices(path: string | undefined): string[] {
  const normal = path === undefined ? null : normalPath(path);
  if (!normal) return [];
  const parts = normal.split('/');
  const choices: string[] = [];
  for (let n = parts.length - 1; n > 0; n--) {
    const folder = parts.slice(0, n).join('/');
    if (folder !== '') choices.push(folder);
  }
  return choices;
}

function ruleMatches(rule: ApprovalRuleView, asked: AskedPermission): boolean {
  if (rule.tool !== asked.tool) return false;
  if (rule.folder === null) return true;
  // A rule for a folder answers only requests that name a path inside it.
  return asked.path !== undefined && isUnder(asked.path, rule.folder);
}

/** The request's option for an effect: the one-time kind first, so the agent keeps no answer of its own. */
export function optionFor(
  options: readonly PermissionOption[],
  effect: 'allow' | 'deny',
): string | undefined {
  const prefix = effect === 'allow' ? 'allow' : 'reject';
  const once = options.find((o) => o.kind === `${prefix}_once`);
  return (once ?? options.find((o) => typeof o.kind === 'string' && o.kind.startsWith(prefix)))?.optionId;
}

/** The answer the rules give: any matching deny wins over every allow. */
export function matchRules(
  rules: readonly ApprovalRuleView[],
  asked: AskedPermission,
  options: readonly PermissionOption[],
): RuleAnswer | undefined {
  const matching = rules.filter((rule) => ruleMatches(rule, asked));
  const rule = matching.find((r) => r.effect === 'deny') ?? matching.find((r) => r.effect === 'allow');
  if (!rule) return undefined;
  const optionId = optionFor(options, rule.effect);
  return optionId ? { rule, optionId } : undefined;
}
