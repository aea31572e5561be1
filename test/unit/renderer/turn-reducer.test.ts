import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/renderer/model/stream-event';
import {
  emptyStream,
  historyLoaded,
  openPermissions,
  readAsked,
  readMayHoldLive,
  reduceTurnEvent,
  reduceTurnEvents,
  turnStopped,
  userMessageAccepted,
  userMessageFailed,
  userMessageSent,
  textPartSealSize,
  type ConversationStream,
  type ToolPart,
} from '../../../src/renderer/model/turn-reducer';
import { splitMarkdown } from '../../../src/renderer/model/markdown-splitter';
import { toStreamEvent } from '../../../src/renderer/model/stream-event';

let seq = 0;
const ev = (event: StreamEvent['event'], data: object, id = String(++seq)): StreamEvent =>
  ({ id, event, data }) as StreamEvent;
const run = (events: StreamEvent[], from: ConversationStream = emptyStream) =>
  events.reduce(reduceTurnEvent, from);
const textOf = (state: ConversationStream, turnId: string) =>
  state.turns[turnId]?.parts
    .filter((p) => p.type === 'text')
    .map((p) => (p as { text: string }).text)
    .join('');

describe('reduceTurnEvent', () => {
  it('turns a turn of events into message parts in order', () => {
    const state = run([
      ev('started', { turnId: 't1' }),
      ev('status', { phase: 'thinking' }),
      ev('thought', { text: 'Let me ' }),
      ev('thought', { text: 'look.' }),
      ev('tool', { id: 'x1', title: 'Read notes.md', kind: 'read', status: 'pending', path: 'notes.md' }),
      ev('chunk', { text: 'Hello ', turnId: 't1' }),
      ev('chunk', { text: 'world', turnId: 't1' }),
      ev('usage', { used: 10, size: 100, input: 4, output: 6, cost: 0.01 }),
      ev('done', { turnId: 't1' }),
    ]);
    const turn = state.turns['t1'];
    expect(turn?.state).toBe('done');
    expect(turn?.parts.map((p) => p.type)).toEqual(['thought', 'tool', 'text']);
    expect(turn?.parts[0]).toMatchObject({ text: 'Let me look.' });
    expect(textOf(state, 't1')).toBe('Hello world');
    expect(turn?.usage).toMatchObject({ input: 4, output: 6 });
    expect(state.currentTurnId).toBeNull();
    expect(state.items).toEqual([{ kind: 'turn', key: 'turn:t1', turnId: 't1' }]);
  });

  it('updates a tool call in place by id, keeping fields the update leaves out', () => {
    const state = run([
      ev('started', { turnId: 't1' }),
      ev('tool', { id: 'x1', title: 'Write a.txt', kind: 'edit', status: 'pending', path: 'a.txt' }),
      ev('chunk', { text: 'writing', turnId: 't1' }),
      ev('tool', { id: 'x1', status: 'completed', detail: 'wrote 2 lines' }),
    ]);
    const parts = state.turns['t1']?.parts ?? [];
    expect(parts.filter((p) => p.type === 'tool')).toHaveLength(1);
    expect(parts[0] as ToolPart).toMatchObject({
      id: 'x1',
      title: 'Write a.txt',
      kind: 'edit',
      status: 'completed',
      path: 'a.txt',
      detail: 'wrote 2 lines',
    });
  });

  it('ignores a replayed event (same SSE id), so a reconnect never duplicates text', () => {
    const events = [
      ev('started', { turnId: 't1' }, 'a1'),
      ev('chunk', { text: 'Hel', turnId: 't1' }, 'a2'),
      ev('chunk', { text: 'lo', turnId: 't1' }, 'a3'),
    ];
    const once = run(events);
    const replayed = run([...events, ev('chunk', { text: '!', turnId: 't1' }, 'a4')], once);
    expect(textOf(replayed, 't1')).toBe('Hello!');
    expect(reduceTurnEvent(once, events[1] as StreamEvent)).toBe(once);
  });

  it('ids shaped <turn>.<n> (the local service) dedupe by the highest n per turn', () => {
    const first = [
      ev('started', { turnId: 'tA' }, 'tA.1'),
      ev('chunk', { text: 'one ', turnId: 'tA' }, 'tA.2'),
      ev('chunk', { text: 'two', turnId: 'tA' }, 'tA.3'),
    ];
    const once = run(first);
    const again = run([...first, ev('chunk', { text: '!', turnId: 'tA' }, 'tA.4')], once);
    expect(textOf(again, 'tA')).toBe('one two!');
    const next = run(
      [ev('started', { turnId: 'tB' }, 'tB.1'), ev('chunk', { text: 'b', turnId: 'tB' }, 'tB.2')],
      again,
    );
    expect(textOf(next, 'tB')).toBe('b');
    expect(next.seen.size).toBe(0);
  });

  it('a very long reply is kept in parts cut at block boundaries, rendering to the same text', () => {
    const paragraph = 'Words in a paragraph that keeps going for a while. '.repeat(20) + '\n\n';
    const fence = '```\ncode line\n\nmore code after a blank line\n```\n\n';
    let whole = '';
    while (whole.length < textPartSealSize * 3) whole += paragraph + fence;
    const chunks = whole.match(/[\s\S]{1,97}/g) ?? [];
    const state = run([
      ev('started', { turnId: 'tL' }),
      ...chunks.map((text) => ev('chunk', { text, turnId: 'tL' })),
    ]);
    const parts = (state.turns['tL']?.parts ?? []) as unknown as { type: string; text: string }[];
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.map((p) => p.text).join('')).toBe(whole);
    // Every part starts a block of the whole text: the blocks of the parts are the blocks of the whole.
    const blocksOfParts = parts.flatMap((p) => splitMarkdown(p.text).blocks.map((b) => b.text));
    expect(blocksOfParts).toEqual(splitMarkdown(whole).blocks.map((b) => b.text));
  });

  it('property: replaying any prefix of the stream, any number of times, gives the same state as once', () => {
    const stream: StreamEvent[] = [
      ev('started', { turnId: 't9' }, 'r0'),
      ...Array.from({ length: 30 }, (_, i) =>
        i % 7 === 3
          ? ev('tool', { id: `tool${i % 2}`, status: `s${i}` }, `r${i + 1}`)
          : ev(i % 5 === 0 ? 'thought' : 'chunk', { text: `w${i} `, turnId: 't9' }, `r${i + 1}`),
      ),
      ev('done', { turnId: 't9' }, 'r99'),
    ];
    const clean = reduceTurnEvents(emptyStream, stream);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: stream.length }), { maxLength: 4 }), (reconnectPoints) => {
        // Each reconnect replays everything from the start of the turn, then goes on.
        let state = emptyStream;
        let delivered = 0;
        for (const point of reconnectPoints) {
          const upTo = Math.max(point, delivered);
          state = reduceTurnEvents(state, stream.slice(0, upTo));
          delivered = upTo;
        }
        state = reduceTurnEvents(state, stream);
        expect(state.turns).toEqual(clean.turns);
        expect(state.items).toEqual(clean.items);
      }),
    );
  });

  it('an error event shows in the reply and the turn ends in error', () => {
    const state = run([
      ev('started', { turnId: 't1' }),
      ev('chunk', { text: 'partial', turnId: 't1' }),
      ev('error', { message: 'The agent stopped unexpectedly.' }),
      ev('done', { turnId: 't1' }),
    ]);
    expect(state.turns['t1']?.state).toBe('error');
    expect(state.turns['t1']?.parts.at(-1)).toMatchObject({
      type: 'error',
      message: 'The agent stopped unexpectedly.',
    });
  });

  it('keeps title, models and caps at conversation level', () => {
    const state = run([
      ev('models', {
        options: [
          { id: 'fast', label: 'Fast' },
          { id: 'deep', label: 'Deep' },
        ],
        current: 'fast',
      }),
      ev('caps', { image: true }),
      ev('title', { title: 'Planning the trip' }),
    ]);
    expect(state.title).toBe('Planning the trip');
    expect(state.models?.current).toBe('fast');
    expect(state.models?.options).toHaveLength(2);
    expect(state.caps).toEqual({ image: true });
  });

  it('a permission prompt stays open until permission-resolved settles it', () => {
    const asked = run([
      ev('started', { turnId: 't1' }),
      ev('permission', {
        id: 'p1',
        title: 'Write hello.txt',
        tool: { name: 'write', path: 'hello.txt' },
        options: [
          { optionId: 'allow-once', name: 'Allow once' },
          { optionId: 'reject', name: 'Reject' },
        ],
      }),
    ]);
    expect(openPermissions(asked).map((p) => p.id)).toEqual(['p1']);
    const settled = run([ev('permission-resolved', { id: 'p1' })], asked);
    expect(openPermissions(settled)).toEqual([]);
    expect(settled.turns['t1']?.parts[0]).toMatchObject({ type: 'permission', resolved: true });
  });

  it('done {idle} ends a turn the stream had spoken about, but not one only just posted', () => {
    const posted = userMessageAccepted(
      userMessageSent(emptyStream, { key: 'u1', text: 'hi', attachments: [] }),
      'u1',
      { turnId: 't1', state: 'running', waitingTurns: 0 },
    );
    const idle = run([ev('done', { idle: true })], posted);
    expect(idle.turns['t1']?.state).toBe('running');
    expect(idle.idle).toBe(true);
    const spoken = run([ev('chunk', { text: 'x', turnId: 't1' }), ev('done', { idle: true })], posted);
    expect(spoken.turns['t1']?.state).toBe('done');
  });

  it('follows the service: started then status queued waits; status running and done {state} settle it', () => {
    const queued = run([ev('started', { turnId: 't1' }), ev('status', { phase: 'queued', turnId: 't1' })]);
    expect(queued.turns['t1']?.state).toBe('queued');
    const running = run([ev('status', { phase: 'running', turnId: 't1' })], queued);
    expect(running.turns['t1']?.state).toBe('running');
    const failed = run([ev('done', { turnId: 't1', state: 'error' })], running);
    expect(failed.turns['t1']?.state).toBe('error');
  });

  it('usage heard after the turn ended belongs to that turn, not to a new one', () => {
    const state = run([
      ev('started', { turnId: 't1' }),
      ev('done', { turnId: 't1', state: 'stopped' }),
      ev('usage', { used: 26 }),
    ]);
    expect(Object.keys(state.turns)).toEqual(['t1']);
    expect(state.turns['t1']).toMatchObject({ state: 'stopped', usage: { used: 26 } });
  });

  it('a chunk with no started event still opens its turn', () => {
    const state = run([ev('chunk', { text: 'hi', turnId: 't5' })]);
    expect(state.currentTurnId).toBe('t5');
    expect(textOf(state, 't5')).toBe('hi');
  });

  it('events without a turn id before any turn land in a provisional turn that takes the real id later', () => {
    const state = run([ev('thought', { text: 'hmm' }), ev('chunk', { text: 'ok', turnId: 't7' })]);
    expect(Object.keys(state.turns)).toEqual(['t7']);
    expect(state.items).toEqual([{ kind: 'turn', key: 'turn:t7', turnId: 't7' }]);
    expect(state.turns['t7']?.parts.map((p) => p.type)).toEqual(['thought', 'text']);
  });
});

describe('local actions', () => {
  const sent = userMessageSent(emptyStream, { key: 'u1', text: 'hello', attachments: [] });

  it('a sent message shows at once, then links to its accepted turn with its waiting turns', () => {
    expect(sent.items).toEqual([
      { kind: 'user', key: 'u1', text: 'hello', attachments: [], mode: 'sending' },
    ]);
    const accepted = userMessageAccepted(sent, 'u1', { turnId: 't1', state: 'queued', waitingTurns: 2 });
    expect(accepted.items[0]).toMatchObject({ mode: 'sent', turnId: 't1' });
    expect(accepted.items[1]).toEqual({ kind: 'turn', key: 'turn:t1', turnId: 't1' });
    expect(accepted.turns['t1']).toMatchObject({ state: 'queued', waitingTurns: 2 });
    // The first stream event moves a queued turn to running.
    const running = run([ev('status', { phase: 'working', turnId: 't1' })], accepted);
    expect(running.turns['t1']?.state).toBe('running');
  });

  it('a message sent while a turn runs joins it (injected) or replaces it (stopped + new turn)', () => {
    const running = run(
      [ev('started', { turnId: 't1' })],
      userMessageAccepted(sent, 'u1', { turnId: 't1', state: 'running', waitingTurns: 0 }),
    );
    const second = userMessageSent(running, { key: 'u2', text: 'also this', attachments: [] });
    const injected = userMessageAccepted(second, 'u2', {
      turnId: 't1',
      state: 'running',
      waitingTurns: 0,
      injected: true,
    });
    expect(injected.items.map((i) => (i.kind === 'user' ? i.mode : i.turnId))).toEqual([
      'sent',
      't1',
      'injected',
    ]);
    expect(Object.keys(injected.turns)).toEqual(['t1']);

    const replaced = userMessageAccepted(second, 'u2', {
      turnId: 't2',
      state: 'running',
      waitingTurns: 0,
      replaced: true,
    });
    expect(replaced.turns['t1']?.state).toBe('stopped');
    expect(replaced.currentTurnId).toBe('t2');
    expect(replaced.items.at(-2)).toMatchObject({ kind: 'user', mode: 'replacing' });
  });

  it('a failed send keeps the message with the reason; cancel stops the turn', () => {
    expect(userMessageFailed(sent, 'u1', 'No connection.').items[0]).toMatchObject({
      mode: 'failed',
      error: 'No connection.',
    });
    const running = run([ev('started', { turnId: 't1' })]);
    const stopped = turnStopped(running, 't1');
    expect(stopped.turns['t1']?.state).toBe('stopped');
    expect(stopped.currentTurnId).toBeNull();
    // A late done does not turn a stopped turn into done.
    expect(run([ev('done', { turnId: 't1' })], stopped).turns['t1']?.state).toBe('stopped');
  });

  it('reloading history drops finished turns and keeps the running one', () => {
    const state = run([
      ev('started', { turnId: 't1' }),
      ev('done', { turnId: 't1' }),
      ev('started', { turnId: 't2' }),
      ev('chunk', { text: 'live', turnId: 't2' }),
    ]);
    const reloaded = historyLoaded(state);
    expect(Object.keys(reloaded.turns)).toEqual(['t2']);
    expect(reloaded.items).toEqual([{ kind: 'turn', key: 'turn:t2', turnId: 't2' }]);
  });

  it('a finished turn the history already shows is not shown again when the stream replays it', () => {
    const loaded = historyLoaded(emptyStream, { turnId: 't1', state: 'done' });
    const replayed = run(
      [
        ev('started', { turnId: 't1' }),
        ev('thought', { text: 'old' }),
        ev('chunk', { text: 'old reply', turnId: 't1' }),
        ev('title', { title: 'Named' }),
        ev('done', { turnId: 't1' }),
        ev('started', { turnId: 't2' }),
        ev('chunk', { text: 'new', turnId: 't2' }),
      ],
      loaded,
    );
    expect(Object.keys(replayed.turns)).toEqual(['t2']);
    expect(replayed.title).toBe('Named');
    expect(textOf(replayed, 't2')).toBe('new');
  });

  it('a read asked for before a turn ended leaves that turn and its message live: what it read may not hold them', () => {
    const first = run([ev('started', { turnId: 't1' }), ev('done', { turnId: 't1' })]);
    const asked = readAsked(first);
    const sent = userMessageSent(first, { key: 'k2', text: 'later', attachments: [] });
    const accepted = userMessageAccepted(sent, 'k2', { turnId: 't2', state: 'running', waitingTurns: 0 });
    const ended = run(
      [
        ev('started', { turnId: 't2' }),
        ev('chunk', { text: 'late', turnId: 't2' }),
        ev('done', { turnId: 't2' }),
      ],
      accepted,
    );
    const reloaded = historyLoaded(ended, { turnId: 't1', state: 'done' }, asked);
    expect(Object.keys(reloaded.turns)).toEqual(['t2']);
    expect(textOf(reloaded, 't2')).toBe('late');
    expect(reloaded.items.filter((item) => item.kind === 'user').map((item) => item.key)).toEqual(['k2']);
    // The next read, asked for after it ended, folds both into the history.
    const again = historyLoaded(reloaded, { turnId: 't2', state: 'done' }, readAsked(reloaded));
    expect(again.turns).toEqual({});
    expect(again.items).toEqual([]);
  });

  it('says a read may hold a message it left live until a read asked for once that message was accepted', () => {
    // A starter: the conversation's first read is asked for, then the message is sent and accepted, and the
    // service served the read after it, so what it read may hold the message the timeline still shows.
    const asked = readAsked(emptyStream);
    const sent = userMessageSent(emptyStream, { key: 'k1', text: 'What can you do?', attachments: [] });
    expect(readMayHoldLive(sent, asked)).toBe(true);
    const accepted = userMessageAccepted(sent, 'k1', { turnId: 't1', state: 'running', waitingTurns: 0 });
    const folded = historyLoaded(accepted, { turnId: 't1', state: 'running' }, asked);
    expect(readMayHoldLive(folded, asked)).toBe(true);
    // The read asked for once it was accepted holds it: it leaves the live side, and nothing is unsure.
    const next = readAsked(folded);
    const again = historyLoaded(folded, { turnId: 't1', state: 'running' }, next);
    expect(again.items.filter((item) => item.kind === 'user')).toEqual([]);
    expect(readMayHoldLive(again, next)).toBe(false);
    // A message whose send failed never reached the service: no read holds it.
    const failed = userMessageFailed(sent, 'k1', 'offline');
    expect(readMayHoldLive(failed, asked)).toBe(false);
  });

  it('a running turn the read holds as ended (a service restarted under it) is shown once, from the read', () => {
    const sent = userMessageSent(emptyStream, { key: 'k1', text: 'wait 30', attachments: [] });
    const accepted = userMessageAccepted(sent, 'k1', { turnId: 't1', state: 'running', waitingTurns: 0 });
    const running = run(
      [ev('started', { turnId: 't1' }), ev('chunk', { text: 'Waiting', turnId: 't1' })],
      accepted,
    );
    const asked = readAsked(running);
    const reloaded = historyLoaded(running, { turnId: 't1', state: 'error' }, asked);
    expect(reloaded.turns).toEqual({});
    expect(reloaded.items).toEqual([]);
    expect(reloaded.currentTurnId).toBeNull();
    // The stream's own word of that ending comes after and adds nothing.
    const told = run(
      [
        ev('error', { message: 'The service restarted', turnId: 't1' }),
        ev('done', { turnId: 't1', state: 'error' }),
      ],
      reloaded,
    );
    expect(told.turns).toEqual({});
    expect(told.items).toEqual([]);
    // A turn the read holds as running stays live.
    expect(Object.keys(historyLoaded(running, { turnId: 't1', state: 'running' }, asked).turns)).toEqual([
      't1',
    ]);
  });

  it('an acceptance that comes after its turn ended and the history was read again adds nothing', () => {
    // On a busy machine the send's answer can be the last to arrive: the stream has told the whole turn and
    // the history, read again, holds the message and its reply.
    const sent = userMessageSent(emptyStream, { key: 'k1', text: 'hi', attachments: [] });
    const streamed = run(
      [ev('started', { turnId: 't1' }), ev('chunk', { text: 'hello', turnId: 't1' })],
      sent,
    );
    const ended = historyLoaded(run([ev('done', { turnId: 't1' })], streamed), {
      turnId: 't1',
      state: 'done',
    });
    const accepted = userMessageAccepted(ended, 'k1', { turnId: 't1', state: 'running', waitingTurns: 0 });
    expect(accepted.items).toEqual([]);
    expect(accepted.turns).toEqual({});
    expect(accepted.currentTurnId).toBeNull();
  });
});

describe('toStreamEvent', () => {
  it('accepts known events with JSON or object payloads and refuses malformed ones', () => {
    expect(toStreamEvent({ event: 'chunk', data: '{"text":"hi","turnId":"t"}', id: '4' })).toEqual({
      id: '4',
      event: 'chunk',
      data: { text: 'hi', turnId: 't' },
    });
    expect(toStreamEvent({ event: 'started', data: '{"turnId":"t"}' })).toEqual({
      event: 'started',
      data: { turnId: 't' },
    });
    expect(toStreamEvent({ event: 'chunk', data: { turnId: 't' } })).toBeUndefined();
    expect(toStreamEvent({ event: 'heartbeat', data: {} })).toBeUndefined();
  });
});

describe('a server that sends `started` without a turnId', () => {
  // The spec does not show the payload of `started`; a spec-following server may send `{}`.
  it('still builds the reply from the events that follow', () => {
    const started = toStreamEvent({ event: 'started', data: {} });
    expect(started).toBeDefined();
    const state = run([started!, ev('chunk', { text: 'Hello', turnId: 'u1' }), ev('done', { turnId: 'u1' })]);
    expect(textOf(state, 'u1')).toBe('Hello');
    expect(state.turns['u1']?.state).toBe('done');
  });
});
