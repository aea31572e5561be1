/**
 * The demo agent's plain directives. The first line of a message decides;
 * case does not matter.
 *
 *   list files            lists the workspace (a `read` tool call)
 *   read <path>           shows a workspace file (a `read` tool call with the path)
 *   write <path>          followed by a fenced code block: asks permission
 *                         (allow once / always allow / reject), then writes the
 *                         block to the file (an `edit` tool call)
 *   wait <N>              waits N seconds (a long turn; cancel stops it at once)
 *   fail                  fails the prompt on purpose
 *   crash                 exits the agent process mid-turn (for crash tests)
 *   echo [text]           repeats the text and names the attachments it got
 *
 * Anything else gets a friendly reply that quotes the message and recalls the
 * conversation so far.
 */
export type Directive =
  | { kind: 'list' }
  | { kind: 'read'; path: string }
  | { kind: 'write'; path: string; text: string | null }
  | { kind: 'wait'; seconds: number }
  | { kind: 'fail' }
  | { kind: 'crash' }
  | { kind: 'echo'; text: string }
  | { kind: 'chat' };

/** Longest wait accepted, so a typo cannot hold a machine for days. */
export const MAX_WAIT_SECONDS = 3600;

const FENCE = /```[^\n]*\n([\s\S]*?)\n?```/;

export function parseDirective(message: string): Directive {
  const trimmed = message.trim();
  const firstLine = (trimmed.split('\n', 1)[0] ?? '').trim();
  const lower = firstLine.toLowerCase();

  if (/^list files\b/.test(lower)) return { kind: 'list' };
  if (/^fail\b/.test(lower)) return { kind: 'fail' };
  if (/^crash\b/.test(lower)) return { kind: 'crash' };

  const read = /^read\s+(\S+)/i.exec(firstLine);
  if (read?.[1]) return { kind: 'read', path: read[1] };

  const write = /^write\s+(\S+)/i.exec(firstLine);
  if (write?.[1]) {
    const block = FENCE.exec(trimmed.slice(firstLine.length));
    return { kind: 'write', path: write[1], text: block ? (block[1] ?? '') : null };
  }

  const wait = /^wait\s+(\d+(?:\.\d+)?)\b/.exec(lower);
  if (wait?.[1]) return { kind: 'wait', seconds: Math.min(Number(wait[1]), MAX_WAIT_SECONDS) };

  const echo = /^echo\b\s*([\s\S]*)$/i.exec(trimmed);
  if (echo) return { kind: 'echo', text: (echo[1] ?? '').trim() };

  return { kind: 'chat' };
}
