import { describe, expect, expectTypeOf, it } from 'vitest';
import type { TurnState } from '../../../../src/shared/api';
import type { TurnDetail } from '../../../../src/shared/bridge/memory';
import { foldEvent, newTurnRecord, parseTurnRow, turnStateOf } from '../../../../src/core/memory/turn-record';

describe("a stored turn's state is one of the spec's turn states", () => {
  it('is typed by the shared turn state, not a loose string', () => {
    expectTypeOf<TurnDetail['state']>().toEqualTypeOf<TurnState | undefined>();
  });

  it('keeps each state the spec lists and nothing else', () => {
    for (const state of ['queued', 'running', 'done', 'error', 'stopped'])
      expect(turnStateOf(state)).toBe(state);
    for (const other of ['cancelled', 'DONE', '', 3, null, undefined])
      expect(turnStateOf(other)).toBeUndefined();
  });

  it('folds `done {state}` into the record; a state the spec does not list ends the turn as done', () => {
    const stopped = newTurnRecord('t1', 0);
    expect(foldEvent(stopped, { event: 'done', data: { state: 'stopped' } })).toBe(true);
    expect(stopped.state).toBe('stopped');
    const odd = newTurnRecord('t2', 0);
    expect(foldEvent(odd, { event: 'done', data: { state: 'finished-ish' } })).toBe(true);
    expect(odd.state).toBe('done');
  });

  it('reads a row written by an older build with an unknown state as having none', () => {
    const row = {
      turn_id: 't',
      started_at: 1,
      user_text: null,
      last_event: 0,
      record: '{"events":[]}',
    };
    expect(parseTurnRow({ ...row, state: 'error' }).state).toBe('error');
    expect(parseTurnRow({ ...row, state: 'weird' }).state).toBeUndefined();
    expect(parseTurnRow({ ...row, state: null }).state).toBeUndefined();
  });
});
