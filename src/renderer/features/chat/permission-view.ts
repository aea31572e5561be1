/**
 * What a permission request will do, in the words a person can judge: the file and the change an
 * edit will make, the command line a command will run, and the raw request for whoever wants it.
 * Pure: reads the ACP tool call the service forwards (`toolCall`) or the tool part it is about.
 */

export interface DiffLine {
  sign: ' ' | '-' | '+';
  text: string;
}

export interface PermissionView {
  kind?: string;
  path?: string;
  /** For an edit: the lines it changes (a new file is all `+`). */
  diff?: { path?: string; created: boolean; lines: DiffLine[]; truncated: boolean };
  /** For a command: its command line. */
  command?: string;
  /** The request as it came, indented JSON. */
  raw: string;
}

/** Lines shown of a change; the rest is in Details. */
const MAX_LINES = 400;
/** Unchanged lines kept around a change. */
const CONTEXT = 2;

type Loose = Record<string, unknown>;
const isLoose = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function permissionView(
  toolCall: unknown,
  about?: { kind?: string; path?: string | null; detail?: string },
): PermissionView {
  const call = isLoose(toolCall) ? toolCall : {};
  const kind = text(call['kind']) ?? about?.kind;
  const locations = Array.isArray(call['locations']) ? call['locations'] : [];
  const path = text(isLoose(locations[0]) ? locations[0]['path'] : undefined) ?? about?.path ?? undefined;
  const view: PermissionView = { raw: JSON.stringify(toolCall ?? about?.detail ?? {}, null, 2) };
  if (kind) view.kind = kind;
  if (path) view.path = path;
  // The local service forwards `diff`; a plain ACP tool call carries it in `content`.
  const content = Array.isArray(call['content']) ? call['content'] : [];
  const diff = isLoose(call['diff'])
    ? call['diff']
    : content.find((c): c is Loose => isLoose(c) && c['type'] === 'diff');
  if (diff && typeof diff['newText'] === 'string') {
    view.diff = lineDiff(text(diff['oldText']) ?? null, diff['newText']);
    const diffPath = text(diff['path']);
    if (diffPath) view.diff.path = diffPath;
  }
  const command = commandLine(call['rawInput']);
  if (command && (kind === 'execute' || !view.diff)) view.command = command;
  return view;
}

/** `command` as a string, or an argv list joined with spaces (quoted where it has spaces). */
function commandLine(input: unknown): string | undefined {
  if (!isLoose(input)) return undefined;
  const command = input['command'] ?? input['cmd'];
  const args = Array.isArray(input['args']) ? input['args'].map(String) : [];
  const parts = Array.isArray(command) ? command.map(String) : typeof command === 'string' ? [command] : [];
  if (parts.length === 0) return undefined;
  return [...parts, ...args].map((p, i) => (i > 0 && /\s/.test(p) ? JSON.stringify(p) : p)).join(' ');
}

/**
 * The changed middle of two texts with a little context: common leading and trailing lines are left
 * out, the rest shows as removed then added. Linear, so a large file never stalls the window.
 */
export function lineDiff(
  oldText: string | null,
  newText: string,
): { created: boolean; lines: DiffLine[]; truncated: boolean } {
  const after = newText.split('\n');
  if (oldText === null)
    return cap(
      after.map((t) => ({ sign: '+', text: t })),
      true,
    );
  const before = oldText.split('\n');
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  const lines: DiffLine[] = [
    ...before.slice(Math.max(0, start - CONTEXT), start).map((t) => ({ sign: ' ' as const, text: t })),
    ...before.slice(start, before.length - end).map((t) => ({ sign: '-' as const, text: t })),
    ...after.slice(start, after.length - end).map((t) => ({ sign: '+' as const, text: t })),
    ...after
      .slice(after.length - end, after.length - end + CONTEXT)
      .map((t) => ({ sign: ' ' as const, text: t })),
  ];
  return cap(lines, false);
}

function cap(lines: DiffLine[], created: boolean) {
  return { created, lines: lines.slice(0, MAX_LINES), truncated: lines.length > MAX_LINES };
}

/**
 * What a request asks, as an approval rule names it (model/approval-match.ts): the tool call's kind where
 * it has one, else the tool's name, else its title; and the path it names, if any. `view` is the request's
 * `permissionView`, already worked out by the caller.
 */
export function askedPermission(
  part: { tool?: unknown; title?: string },
  view: Pick<PermissionView, 'kind' | 'path'>,
): { tool: string; path?: string } {
  const tool = view.kind ?? (typeof part.tool === 'string' && part.tool ? part.tool : (part.title ?? 'tool'));
  return view.path ? { tool, path: view.path } : { tool };
}

/** An option's label: its own name, else the words for its ACP kind, else its id. */
export function optionLabel(option: { optionId: string; name?: string; kind?: string }): string {
  if (option.name) return option.name;
  const words: Record<string, string> = {
    allow_once: 'Allow once',
    allow_always: 'Always allow',
    reject_once: 'Reject',
    reject_always: 'Always reject',
  };
  return (option.kind && words[option.kind]) || option.optionId;
}
