import { describe, expect, it } from 'vitest';
import {
  ConversationEventLog,
  NEVER_RAN_ID,
  type LoggedEvent,
} from '../../../../src/service/turns/event-log';

const ids = (events: LoggedEvent[]) => events.map((e) => e.id);

describe('ConversationEventLog', () => {
  it('gives an idle notice before any turn ran', () => {
    const log = new ConversationEventLog();
    expect(log.replay()).toEqual([{ id: NEVER_RAN_ID, event: 'done', data: { reposo: true } }]);
  });

  it('replays the current turn, then resumes after Last-Event-ID without gaps or repeats', () => {
    const log = new ConversationEventLog();
    log.beginTurn('t1');
    log.append('started', { turnId: 't1' });
    log.append('chunk', { text: 'a', turnId: 't1' });
    log.append('chunk', { text: 'b', turnId: 't1' });
    expect(ids(log.replay())).toEqual(['t1.1', 't1.2', 't1.3']);
    expect(ids(log.replay('t1.2'))).toEqual(['t1.3']);
    expect(ids(log.replay('t1.3'))).toEqual([]);
  });

  it("tells the endings of an earlier run's turn and of the one waiting behind it, idle once, to whoever followed either", () => {
    const log = new ConversationEventLog();
    log.closeLeftover('t1', 'restarted', 'error');
    log.closeLeftover('t2', 'restarted', 'stopped');
    const all = log.replay();
    expect(all.map((e) => [e.id, e.event, e.data])).toEqual([
      ['t1~restart.1', 'error', { message: 'restarted', code: 'service_restarted', turnId: 't1' }],
      ['t1~restart.2', 'done', { turnId: 't1', estado: 'error' }],
      ['t2~restart.1', 'error', { message: 'restarted', code: 'service_restarted', turnId: 't2' }],
      ['t2~restart.2', 'done', { turnId: 't2', estado: 'stopped' }],
      ['t2~restart.3', 'done', { reposo: true }],
    ]);
    // An id of the earlier run, of either turn or of neither: the endings from the turn it followed on.
    expect(log.replay('t1.8')).toEqual(all);
    expect(log.replay('reposo.0')).toEqual(all);
    expect(ids(log.replay('t2.1'))).toEqual(['t2~restart.1', 't2~restart.2', 't2~restart.3']);
    // Already told: nothing again.
    expect(log.replay('t2~restart.3')).toEqual([]);
    log.beginTurn('t3');
    expect(ids(log.replay())).toEqual([]);
  });

  it('ends a turn with done {turnId} and, when idle, done {reposo:true}', () => {
    const log = new ConversationEventLog();
    log.beginTurn('t1');
    log.append('chunk', { text: 'a', turnId: 't1' });
    log.endTurn(true);
    const all = log.replay('t1.0');
    expect(all.map((e) => [e.event, e.data])).toEqual([
      ['chunk', { text: 'a', turnId: 't1' }],
      ['done', { turnId: 't1' }],
      ['done', { reposo: true }],
    ]);
    // Connecting while idle: only the idle notice, carrying its real id.
    expect(log.replay()).toEqual([{ id: 't1.3', event: 'done', data: { reposo: true } }]);
  });

  it('resumes across a turn boundary from the previous turn', () => {
    const log = new ConversationEventLog();
    log.beginTurn('t1');
    log.append('chunk', { text: 'a' });
    log.endTurn(false);
    log.beginTurn('t2');
    log.append('chunk', { text: 'b' });
    expect(ids(log.replay('t1.1'))).toEqual(['t1.2', 't2.1']);
    expect(ids(log.replay('unknown.4'))).toEqual(['t2.1']);
    expect(ids(log.replay('garbage'))).toEqual(['t2.1']);
  });

  it('subscribe replays then delivers live events exactly once', () => {
    const log = new ConversationEventLog();
    log.beginTurn('t1');
    log.append('chunk', { text: 'a' });
    const live: LoggedEvent[] = [];
    const sub = log.subscribe((e) => live.push(e));
    log.append('chunk', { text: 'b' });
    sub.close();
    log.append('chunk', { text: 'c' });
    expect(ids(sub.replayed)).toEqual(['t1.1']);
    expect(ids(live)).toEqual(['t1.2']);
    expect(log.subscriberCount).toBe(0);
  });

  it('shows its mirror every event in order, and a log restored from them replays as the original', () => {
    const mirrored: LoggedEvent[] = [];
    const log = new ConversationEventLog((e) => mirrored.push(e));
    log.beginTurn('t1');
    log.append('started', { turnId: 't1' });
    log.endTurn(true, { estado: 'done' });
    log.beginTurn('t2');
    log.append('started', { turnId: 't2' });
    log.append('chunk', { text: 'a', turnId: 't2' });
    const turnsOf = (events: LoggedEvent[]) => {
      const turns: { turnId: string; events: LoggedEvent[] }[] = [];
      for (const e of events) {
        const turnId = e.id.slice(0, e.id.lastIndexOf('.'));
        if (turns.at(-1)?.turnId !== turnId) turns.push({ turnId, events: [] });
        turns.at(-1)!.events.push(e);
      }
      return turns;
    };
    // The open turn, and a resume across the turn boundary.
    for (const lastEventId of [null, 't1.2', 't2.1', 'gone.4']) {
      expect(ConversationEventLog.restore(turnsOf(mirrored)).replay(lastEventId)).toEqual(
        log.replay(lastEventId),
      );
    }
    // A closed turn replays as idle; an earlier run's leftover, its ending, to everyone.
    log.endTurn(true, { estado: 'done' });
    expect(ConversationEventLog.restore(turnsOf(mirrored)).replay()).toEqual(log.replay());
    log.closeLeftover('t3', 'interrupted', 'error');
    expect(ids(mirrored.slice(-3))).toEqual(['t3~restart.1', 't3~restart.2', 't3~restart.3']);
    expect(ConversationEventLog.restore(turnsOf(mirrored)).replay('t2.4')).toEqual(log.replay('t2.4'));
    expect(ConversationEventLog.restore(turnsOf(mirrored)).replay()).toEqual(log.replay());
  });
});
