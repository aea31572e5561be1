/**
 * What a scripted provider answers, protocol-free: the OpenAI and Anthropic servers each turn one
 * `ScriptedReply` into their own wire format (SSE events or one JSON body).
 */

export interface ScriptedToolCall {
  /** The call's id as the provider gives it; made up (`call_1`, `toolu_1`) when absent. */
  id?: string;
  name: string;
  input: Record<string, unknown>;
}

/** A model's reply: thinking first, then text, then tool calls, then usage. */
export interface ScriptedTurn {
  thinking?: string;
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Token counts the provider reports (defaults: 10 in, 5 out). */
  usage?: { input: number; output: number };
  /** Text and thinking go out in pieces of this many characters (default: word by word). */
  pieceChars?: number;
  /** Pause before each piece, in ms: a slow stream, for speed and cancel tests. */
  paceMs?: number;
  /** Pause before the response's first byte, in ms. */
  firstByteMs?: number;
  /** Send this many text pieces, then stop sending and keep the connection open (a stall mid-stream). */
  stallAfterPieces?: number;
}

/**
 * A failure as the provider says it, with the provider's own error body:
 * - `refused-key`: 401;
 * - `rate-limited`: 429 with `retry-after` (seconds);
 * - `unknown-model`: 404 model not found;
 * - `server-error`: 500;
 * - `hang`: never answers (the client's timeout or abort must end it).
 */
export type ScriptedFailure =
  | { fail: 'refused-key' }
  | { fail: 'rate-limited'; retryAfter: number }
  | { fail: 'unknown-model' }
  | { fail: 'server-error'; message?: string }
  | { fail: 'hang' };

export type ScriptedReply = ScriptedTurn | ScriptedFailure;

export function isFailure(reply: ScriptedReply): reply is ScriptedFailure {
  return 'fail' in reply;
}

/** Splits text into the pieces a stream sends: words with their following space, or fixed sizes. */
export function pieces(text: string, pieceChars?: number): string[] {
  if (!text) return [];
  if (pieceChars && pieceChars > 0) {
    const out: string[] = [];
    for (let i = 0; i < text.length; i += pieceChars) out.push(text.slice(i, i + pieceChars));
    return out;
  }
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
