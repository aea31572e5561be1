import type { StoredMessage } from '../../shared/api';
import type { MemoryHistory, MemoryMessage, TurnDetail } from '../../shared/bridge/memory';

/** A message of the server's history (the truth for text), `at` in epoch ms. */
export type HistoryMessage = StoredMessage & {
  /** Servers that stamp messages with their turn get an exact match. */
  turnId?: string;
};

/** A turn as stored: what was asked and answered, and the detail the server does not keep. */
export interface StoredTurn {
  userText: string | null;
  replyText: string;
  detail: TurnDetail;
}

/** How far before a tail's first message a stored turn may start and still belong to it (clock skew). */
export const TAIL_SLACK_MS = 60 * 60 * 1000;

/**
 * Pure: lays the stored detail of each turn beside the server's text. Server messages group into
 * exchanges (questions, then the reply); each exchange takes the next stored turn, in order, whose
 * question or reply text is the same. The server's text always wins: where the stored reply differs,
 * the detail keeps its thoughts and tools, shows the server's text, and carries the stored text as
 * `storedText`. Exchanges no stored turn matches (another client, a scheduled turn) stay plain text.
 * A turn stopped or failed before it said anything leaves no reply on the server, so its question runs
 * into the next one; a stored turn with that question and no reply splits them again.
 */
export function mergeHistory(
  messages: readonly HistoryMessage[],
  skipped: number,
  turns: readonly StoredTurn[],
): MemoryHistory {
  const merged: MemoryMessage[] = messages.map((m, i) => ({
    position: skipped + i,
    role: m.role,
    content: m.content,
    at: m.at,
  }));
  const firstAt = messages[0]?.at ?? 0;
  const candidates = [...turns]
    .filter((t) => skipped === 0 || t.detail.startedAt >= firstAt - TAIL_SLACK_MS)
    .sort((a, b) => a.detail.startedAt - b.detail.startedAt);
  let next = 0;
  for (const whole of exchangesOf(messages)) {
    for (const exchange of splitUnanswered(whole, candidates, next, messages)) {
      const found = findTurn(candidates, next, exchange, messages);
      if (found < 0) continue;
      next = found + 1;
      attach(merged, exchange, candidates[found]!);
    }
  }
  return { messages: merged, skipped };
}

interface Exchange {
  questions: number[];
  replies: number[];
}

function exchangesOf(messages: readonly HistoryMessage[]): Exchange[] {
  const out: Exchange[] = [];
  let open: Exchange | null = null;
  messages.forEach((m, i) => {
    if (m.role === 'user' && (!open || open.replies.length > 0)) {
      open = { questions: [], replies: [] };
      out.push(open);
    }
    if (!open) {
      open = { questions: [], replies: [] };
      out.push(open);
    }
    (m.role === 'user' ? open.questions : open.replies).push(i);
  });
  return out;
}

/**
 * Questions run together either because they joined one turn (their reply follows them all) or because
 * a turn left no reply. The second kind is cut after each question a stored turn answered with nothing,
 * taking the stored turns in order as `findTurn` does.
 */
function splitUnanswered(
  exchange: Exchange,
  turns: readonly StoredTurn[],
  from: number,
  messages: readonly HistoryMessage[],
): Exchange[] {
  const out: Exchange[] = [];
  let questions: number[] = [];
  let cursor = from;
  exchange.questions.forEach((q, k) => {
    questions.push(q);
    if (k === exchange.questions.length - 1) return;
    const asked = same(messages[q]!.content);
    const j = turns.findIndex(
      (t, i) => i >= cursor && t.userText !== null && same(t.userText) === asked && same(t.replyText) === '',
    );
    if (j < 0) return;
    out.push({ questions, replies: [] });
    questions = [];
    cursor = j + 1;
  });
  out.push({ questions, replies: exchange.replies });
  return out;
}

function findTurn(
  turns: readonly StoredTurn[],
  from: number,
  exchange: Exchange,
  messages: readonly HistoryMessage[],
): number {
  const stamped = [...exchange.questions, ...exchange.replies]
    .map((i) => messages[i]!.turnId)
    .find((id) => id !== undefined);
  if (stamped !== undefined) return turns.findIndex((t) => t.detail.turnId === stamped);
  const questions = exchange.questions.map((i) => same(messages[i]!.content));
  const reply = exchange.replies.length > 0 ? same(messages[exchange.replies.at(-1)!]!.content) : null;
  for (let j = from; j < turns.length; j++) {
    const turn = turns[j]!;
    if (turn.userText !== null && questions.includes(same(turn.userText))) return j;
    if (reply !== null && reply !== '' && same(turn.replyText) === reply) return j;
  }
  return -1;
}

function attach(merged: MemoryMessage[], exchange: Exchange, turn: StoredTurn): void {
  const question = exchange.questions.find((i) => same(merged[i]!.content) === same(turn.userText ?? ''));
  if (question !== undefined && turn.detail.attachments.length > 0) {
    merged[question]!.attachments = turn.detail.attachments;
  }
  const replyAt = exchange.replies.at(-1);
  if (replyAt === undefined) {
    const last = exchange.questions.at(-1);
    if (last !== undefined) merged[last]!.detail = turn.detail;
    return;
  }
  const reply = merged[replyAt]!;
  reply.detail =
    same(turn.replyText) === same(reply.content) ? turn.detail : besideServerText(turn, reply.content);
}

/** The detail with the server's text in place of the stored chunks, which are kept as `storedText`. */
function besideServerText(turn: StoredTurn, serverText: string): TurnDetail {
  const events = turn.detail.events.filter((e) => e.event !== 'chunk');
  events.push({ event: 'chunk', data: { text: serverText } });
  return { ...turn.detail, events, storedText: turn.replyText };
}

function same(text: string): string {
  return text.replace(/\r\n/g, '\n').trim();
}
