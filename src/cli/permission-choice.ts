import type { PermissionOption } from '../shared/api';

/**
 * The option a typed answer picks: its number, or y/yes for the one that allows once and n/no for the
 * one that denies once (the question people expect at a terminal); undefined for anything else.
 */
export function permissionChoice(
  options: readonly PermissionOption[],
  typed: string,
): PermissionOption | undefined {
  const answer = typed.trim().toLowerCase();
  if (/^\d+$/.test(answer)) return options[Number(answer) - 1];
  const kind = /^(y|yes)$/.test(answer) ? 'allow_once' : /^(n|no)$/.test(answer) ? 'reject_once' : undefined;
  if (!kind) return undefined;
  // A server that gives no kinds (they are not the spec's) still names its options.
  const named = kind === 'allow_once' ? /^(allow|yes)\b/i : /^(deny|reject|no)\b/i;
  return (
    options.find((o) => o.kind === kind) ??
    options.find((o) => o.kind?.startsWith(kind.split('_')[0]!)) ??
    options.find((o) => !o.kind && named.test(o.name ?? ''))
  );
}
