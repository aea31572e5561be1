import { describe, expect, it } from 'vitest';
import {
  mergeHistory,
  type HistoryMessage,
  type StoredTurn,
} from '../../../../src/core/memory/history-merge';
import type { TurnState } from '../../../../src/shared/api';

const T = Date.parse('2026-11-28T10:00:00Z');

function turn(turnId: string, n: number, userText: string, replyText: string, state: TurnState): StoredTurn {
  const events = replyText ? [{ event: 'chunk', data: { text: replyText } }] : [];
  return { userText, replyText, detail: { turnId, startedAt: T + n * 1000, state, events, attachments: [] } };
}

const user = (content: string, n: number): HistoryMessage => ({ role: 'user', content, at: T + n * 1000 });
const agent = (content: string, n: number): HistoryMessage => ({
  role: 'assistant',
  content,
  at: T + n * 1000,
});

/** Which turn each message carries, in order ('-' for none). */
function carried(messages: HistoryMessage[], turns: StoredTurn[]): string[] {
  return mergeHistory(messages, 0, turns).messages.map((m) => m.detail?.turnId ?? '-');
}

describe('mergeHistory', () => {
  it('a turn stopped before it said anything keeps its own place, also when the next asks the same', () => {
    // The server keeps no reply for a turn that said nothing, so its question runs into the retry's.
    const messages = [user('fail', 0), agent('Failing.', 1), user('wait 30', 2), user('wait 30', 4)];
    const turns = [
      turn('t1', 0, 'fail', 'Failing.', 'error'),
      turn('t2', 2, 'wait 30', '', 'stopped'),
      turn('t3', 4, 'wait 30', '', 'stopped'),
    ];
    expect(carried(messages, turns)).toEqual(['-', 't1', 't2', 't3']);
  });

  it('a message that joined the running turn stays with it: one reply after both questions', () => {
    const messages = [user('first', 0), user('and also', 1), agent('Both answered.', 2)];
    const turns = [turn('t1', 0, 'first', 'Both answered.', 'done')];
    expect(carried(messages, turns)).toEqual(['-', '-', 't1']);
  });

  it('a silent turn splits only where its question is; other questions stay together', () => {
    const messages = [user('quiet', 0), user('first', 1), user('and also', 2), agent('Both answered.', 3)];
    const turns = [turn('t1', 0, 'quiet', '', 'stopped'), turn('t2', 1, 'first', 'Both answered.', 'done')];
    expect(carried(messages, turns)).toEqual(['t1', '-', '-', 't2']);
  });

  it('an earlier silent turn with the same question is not taken again further on', () => {
    const messages = [user('wait 30', 0), agent('Done waiting.', 1), user('wait 30', 2), user('hi', 3)];
    const turns = [
      turn('t1', 0, 'wait 30', 'Done waiting.', 'done'),
      turn('t2', 2, 'wait 30', '', 'stopped'),
      turn('t3', 3, 'hi', '', 'running'),
    ];
    expect(carried(messages, turns)).toEqual(['-', 't1', 't2', 't3']);
  });
});
