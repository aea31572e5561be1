import { isTerminal, type AcceptedTurnState } from '../../shared/api';
import { ConversationRuntimes, type ConversationRuntime } from './conversation-runtimes';
import type { EventListener } from './event-log';
import type { ResolveResult } from './permission-broker';
import { closeInterruptedTurns, SERVICE_STOPPED_MESSAGE } from './restart-recovery';
import type { CancelOutcome, SubmitResult } from './turn-answers';
import { launchTurn, readLaunchSettings, type LaunchDeps } from './turn-launch';
import { lockRow, type Executor } from '../db/statement';
import { OrderedWrites } from './ordered-writes';
import type { TurnManagerOptions } from './turn-manager-options';
import { admit, type AdmissionDeps } from './turn-admission';
import { closeTurn, finishTurn, stopTurnNow, type CloseDeps } from './turn-close';
import type { Submission, Turn } from './turn-record';

/**
 * The lifecycle of every conversation's turns: admission (new / injected / replacing / waiting), the start,
 * the close, cancel, forget and shutdown. One turn at a time per conversation. The admission's decision is in
 * turn-admission.ts, the engine call in turn-launch.ts, the close's bookkeeping in turn-close.ts, the event
 * fan-out in engine-event-fanout.ts, permissions in permission-relay.ts, the allowance in allowance.ts.
 */
export class TurnManager {
  private readonly runtimes: ConversationRuntimes;
  private readonly launchDeps: LaunchDeps;
  private draining = false;
  /** Set by `shutdown`: no turn is admitted any more, whatever the drain switch says. */
  private stopping = false;
  /** Admissions under way, which `shutdown` lets finish before it ends their turns. */
  private readonly admitting = new Set<Promise<unknown>>();
  /** Turns a previous run left open are closed before the first admission. */
  private readonly ready: Promise<void>;
  private readonly writes = new OrderedWrites();
  private readonly admission: AdmissionDeps;
  private readonly closeDeps: CloseDeps;

  constructor(private readonly options: TurnManagerOptions) {
    this.runtimes = new ConversationRuntimes(
      options.timers,
      options.permissionTimeoutMs,
      options.sharedEvents && ((id) => options.sharedEvents!.mirror(id)),
    );
    this.launchDeps = {
      engine: options.engine,
      store: options.store,
      agentSettings: options.agentSettings,
      seedOf: options.seedOf,
      now: () => this.now(),
      finish: (rt, turn, result) => finishTurn(this.closeDeps, rt, turn, result),
      persist: (write) => this.persist(() => write()),
    };
    this.admission = {
      store: options.store,
      engine: options.engine,
      runtimes: this.runtimes,
      now: () => this.now(),
      persist: (write) => this.persist(write),
      begin: (rt, turn) => this.begin(rt, turn, true),
      stopNow: (rt, turn) => this.stopNow(rt, turn, false),
    };
    this.closeDeps = {
      store: options.store,
      hooks: options.hooks,
      now: () => this.now(),
      persist: (write) => this.persist(write),
      begin: (rt, turn) => this.begin(rt, turn, false),
    };
    this.ready = options.leavesOpenTurns ? Promise.resolve() : this.closeTurnsLeftOpen();
  }

  /** Ends the turns an earlier run left open, or the program a guest took over from (restart-recovery.ts). */
  closeTurnsLeftOpen(): Promise<void> {
    return closeInterruptedTurns(this.options.store, this.runtimes, this.now());
  }

  /** While draining, new messages answer 503 `reiniciando` (the service is about to restart). */
  setDraining(on: boolean): void {
    this.draining = on;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  // Admission

  /**
   * Admits a message. One transaction from the idempotency check to the record of the answer, queued
   * after the store's earlier writes, holding the conversation's row on PostgreSQL; the decision itself is
   * synchronous. So concurrent identical POSTs can never both create a turn.
   */
  async submit(s: Submission): Promise<SubmitResult> {
    if (this.draining || this.stopping) return { kind: 'draining' };
    const admitted = this.admit(s);
    this.admitting.add(admitted);
    try {
      const result = await admitted;
      // Several processes: the turn's first events are stored before the 202, so a stream opened on
      // its answer, in any process, replays them instead of saying the conversation is idle.
      await this.options.sharedEvents?.flushed();
      return result;
    } finally {
      this.admitting.delete(admitted);
    }
  }

  private async admit(s: Submission): Promise<SubmitResult> {
    await this.ready;
    const launch = await readLaunchSettings(this.launchDeps, s);
    const { store, allowance } = this.options;
    return store.atomic(async (trx) => {
      await lockRow(trx, 'conversations', s.conversationId);
      const seen = s.turnId ? await store.findRequest(s.conversationId, s.turnId, trx) : null;
      const refusal = seen ? null : await allowance.refusal(s.personId, trx);
      const untitled = (await store.findAny(s.conversationId, trx))?.title === null;
      return this.writes.during(trx, () => admit(this.admission, s, { seen, refusal, launch, untitled }));
    });
  }

  private persist(write: (on: Executor | undefined) => Promise<unknown>): void {
    this.writes.persist(write);
  }

  /**
   * Makes `turn` the conversation's current turn and hands it to the engine (at once when the
   * engine is done with the previous turn, else right after). Returns the admitted state.
   */
  private begin(rt: ConversationRuntime, turn: Turn, fresh: boolean): AcceptedTurnState {
    const { store, engine } = this.options;
    const now = this.now();
    rt.current = turn;
    rt.log.beginTurn(turn.turnId);
    this.persist((on) => store.addMessage(turn.conversationId, turn.turnId, 'user', turn.content, now, on));
    rt.log.append('started', { turnId: turn.turnId });
    let state: AcceptedTurnState;
    if (!rt.engineBusy) {
      launchTurn(this.launchDeps, rt, turn, false);
      state = turn.handle!.queued ? 'queued' : 'running';
    } else {
      // The engine still winds down the turn before (a replacement): start right after it.
      state = engine.wouldQueue(turn.agentId) ? 'queued' : 'running';
      void rt.engineFree.then(() => {
        if (rt.current === turn && !isTerminal(turn.state)) launchTurn(this.launchDeps, rt, turn, true);
      });
    }
    turn.state = state;
    this.persist((on) =>
      fresh
        ? store.insertTurn(turn.conversationId, turn.turnId, turn.personId, turn.requester, state, now, on)
        : store.setTurnState(turn.conversationId, turn.turnId, state, now, on),
    );
    rt.log.append('status', { phase: state, turnId: turn.turnId });
    return state;
  }

  /** POST permission. */
  resolvePermission(conversationId: string, id: string, optionId: string): ResolveResult {
    return this.runtimes.find(conversationId)?.broker.resolve(id, optionId) ?? 'not-open';
  }

  // Ending turns (turn-close.ts)

  private stopNow(rt: ConversationRuntime, turn: Turn, startNext: boolean): void {
    stopTurnNow(this.closeDeps, rt, turn, startNext);
  }

  /** POST cancel: only whoever requested the turn may stop it. */
  async cancel(conversationId: string, requester: string): Promise<CancelOutcome> {
    const rt = this.runtimes.find(conversationId);
    const turn = rt?.current;
    if (!rt || !turn || isTerminal(turn.state)) return { stopped: false, reason: 'no_turn' };
    if (turn.requester !== requester) return { stopped: false, reason: 'other_requester' };
    if (!turn.handle || turn.engineEnded) {
      this.stopNow(rt, turn, true);
    } else {
      turn.closing = true;
      turn.abort.abort();
    }
    await turn.finished;
    return { stopped: true };
  }

  /** Stops whatever runs in a conversation (archive) and forgets its live state. */
  async forget(conversationId: string): Promise<void> {
    const rt = this.runtimes.find(conversationId);
    if (!rt) return;
    for (const waiting of [...rt.waiting]) this.stopNow(rt, waiting, false);
    const turn = rt.current;
    if (turn) {
      if (!turn.handle) this.stopNow(rt, turn, false);
      else turn.abort.abort();
      await turn.finished;
    }
  }

  /** Service close: each turn ends as an error saying `message`, with its reply so far (waiting: stopped). */
  private interruptAll(message: string): void {
    const { store } = this.options;
    // Marked, so the next start tells the subscribers who reconnect to it (restart-recovery.ts).
    const note = (turn: Turn): void =>
      this.persist((on) => store.noteServiceStop(turn.conversationId, turn.turnId, true, on));
    for (const rt of this.runtimes.all()) {
      for (const waiting of [...rt.waiting]) {
        this.stopNow(rt, waiting, false);
        note(waiting);
      }
      const turn = rt.current;
      if (!turn || isTerminal(turn.state)) continue;
      turn.abort.abort();
      rt.log.append('error', { message, code: 'service_stopped', turnId: turn.turnId });
      // Nothing waits any more (stopped above), so the stream then says the conversation is idle.
      closeTurn(this.closeDeps, rt, turn, 'error', true);
      note(turn);
    }
  }

  /** Another process took the agent over (lease lost): its turns here end in silence (see dropTurnsOf). */
  abandon(agentId: string): void {
    this.runtimes.dropTurnsOf(agentId);
  }

  /** The service closes: no new turn, the admissions under way finish, every turn ends, every write lands. */
  async shutdown(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([this.ready, ...this.admitting]);
    this.interruptAll(SERVICE_STOPPED_MESSAGE);
    await this.writes.settled();
  }

  // Reading

  /** Subscribes to a conversation's events; `replayed` comes first, then live events. */
  async subscribe(conversationId: string, listener: EventListener, lastEventId?: string | null) {
    const shared = this.options.sharedEvents;
    if (shared) return shared.subscribe(conversationId, listener, lastEventId);
    // A stream opened right after a restart waits for the turns the earlier run left, so it is told of them.
    await this.ready;
    return this.runtimes.of(conversationId).log.subscribe(listener, lastEventId);
  }

  /** The latest `models` a turn of this conversation reported (null before any). */
  knownModels(conversationId: string): { id: string; label: string }[] | null {
    return this.runtimes.find(conversationId)?.models?.options ?? null;
  }

  /** The conversation was renamed: a first turn that ends now leaves its title alone and announces none. */
  titled(conversationId: string): void {
    const rt = this.runtimes.find(conversationId);
    for (const turn of [rt?.current, ...(rt?.waiting ?? [])]) if (turn) turn.untitled = false;
  }

  /** Current turn's id, or null when idle. */
  currentTurnId(conversationId: string): string | null {
    return this.runtimes.find(conversationId)?.current?.turnId ?? null;
  }

  /** Turns in flight, for tests and shutdown. */
  activeTurns(): number {
    return this.runtimes.activeTurns();
  }

  private now(): number {
    return this.options.timers.now();
  }
}
