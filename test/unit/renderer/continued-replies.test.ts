import { describe, expect, it } from 'vitest';
import {
  continues,
  foldedReplies,
  matchContinued,
  type ContinuedReply,
  type HistoryReply,
} from '../../../src/renderer/model/continued-replies';
import { historyLoaded } from '../../../src/renderer/model/user-actions';
import { emptyStream, reduceTurnEvents, type Turn } from '../../../src/renderer/model/turn-reducer';
import type { StreamEvent } from '../../../src/renderer/model/stream-event';

/** A turn streamed as these text chunks (with a tool call between the first and the rest), ended or not. */
function streamed(turnId: string, chunks: string[], ended = true) {
  const events: StreamEvent[] = [{ id: `${turnId}.0`, event: 'started', data: { turnId } }];
  chunks.forEach((text, i) => {
    events.push({ id: `${turnId}.c${i}`, event: 'chunk', data: { turnId, text } });
    if (i === 0)
      events.push({
        id: `${turnId}.t`,
        event: 'tool',
        data: { turnId, id: 'x', title: 'Read', status: 'completed' },
      });
  });
  if (ended) events.push({ id: `${turnId}.end`, event: 'done', data: { turnId } });
  return reduceTurnEvents(emptyStream, events);
}

describe('a reply that streamed here, once the history holds it', () => {
  it('the history read folds the ended turn out of the timeline, and it is named with its live row key', () => {
    const before = streamed('t1', ['Hello ', 'there']);
    const after = historyLoaded(before, { turnId: 't1', state: 'done' });
    const folded = foldedReplies(before, after);
    expect(folded).toEqual([{ key: 'turn:t1', turn: before.turns['t1'] }]);
    // A turn still running stays live, so nothing is folded.
    const running = streamed('t2', ['Hi'], false);
    expect(foldedReplies(running, historyLoaded(running, null))).toEqual([]);
    // Frames that only grow the turn fold nothing.
    expect(foldedReplies(before, before)).toEqual([]);
  });

  it('is the history message with the same text, the text parts compared in place across a tool call', () => {
    // Long enough that the text is in several sealed parts (32 KB each), as a 1 MB reply is.
    const chunks = [
      'Intro',
      ...Array.from({ length: 800 }, (_, i) => `\n\nParagraph ${i} ${'x'.repeat(90)}`),
    ];
    const turn = streamed('t1', chunks).turns['t1'] as Turn;
    expect(turn.parts.filter((p) => p.type === 'text').length).toBeGreaterThan(2);
    const text = chunks.join('');
    expect(continues({ content: text }, turn)).toBe(true);
    expect(continues({ content: text, detail: { turnId: 't1' } }, turn)).toBe(true);
    // The history's text differs (one letter, or what the app kept differs from the server's): its own shows.
    expect(continues({ content: text.replace('Paragraph 500', 'Paragraph 5o0') }, turn)).toBe(false);
    expect(continues({ content: `${text}.` }, turn)).toBe(false);
    expect(continues({ content: text, detail: { turnId: 't1', storedText: 'other' } }, turn)).toBe(false);
    // Another turn with the same words is not this one.
    expect(continues({ content: text, detail: { turnId: 't9' } }, turn)).toBe(false);
    // A reply with no words (a stopped turn) is never matched to an empty message.
    const silent = reduceTurnEvents(emptyStream, [
      { id: 's.0', event: 'started', data: { turnId: 's' } },
      { id: 's.1', event: 'done', data: { turnId: 's' } },
    ] as StreamEvent[]).turns['s'] as Turn;
    expect(continues({ content: '' }, silent)).toBe(false);
  });

  it('each kept reply goes to one message, is compared once per message, and is let go when no message holds it', () => {
    const one = { key: 'turn:a', turn: streamed('a', ['same words']).turns['a'] as Turn };
    const two = { key: 'turn:b', turn: streamed('b', ['same words']).turns['b'] as Turn };
    const question: HistoryReply = { content: 'ask' };
    const first: HistoryReply = { content: 'same words' };
    const second: HistoryReply = { content: 'same words' };
    const matched = new WeakMap<HistoryReply, ContinuedReply | null>();
    const result = matchContinued([question, first, second], [one, two], matched);
    expect(result.byMessage.get(first)).toBe(one);
    expect(result.byMessage.get(second)).toBe(two);
    expect(result.byMessage.has(question)).toBe(false);
    expect(result.kept).toEqual([one, two]);
    expect(matched.get(question)).toBeNull();
    // The history no longer holds the second reply (a shorter tail): that kept turn is let go.
    const later = matchContinued([question, first], result.kept, matched);
    expect(later.kept).toEqual([one]);
    expect(later.byMessage.get(first)).toBe(one);
  });
});
