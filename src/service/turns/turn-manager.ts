import { isTerminal, type AcceptedTurnState, type TurnState } from '../../shared/api';
import type { EngineHost, TurnResult } from '../engine/types';
import type { Allowance } from './allowance';
import type { ConversationStore } from '../conversations/conversation-store';
import { ConversationRuntimes, type ConversationRuntime } from './conversation-runtimes';
import type { EventListener } from './event-log';
import type { ResolveResult } from './permission-broker';
import { closeInterruptedTurns } from './restart-recovery';
import { titleFromMessage } from '../conversations/thread-title';
import type { Timers } from '../timers';
import type { SharedEvents } from '../core-context';
import {
  acceptedFromRecord,
  acceptedOf,
  type Accepted,
  type CancelOutcome,
  type SubmitResult,
} from './turn-answers';
import { launchTurn, readLaunchSettings, type AgentSettingsLookup, type LaunchDeps } from './turn-launch';
import { lockRow, type Executor } from '../db/statement';
import { isClosing, newTurn, type LaunchSettings, type Submission, type Turn } from './turn-record';
import { routeIncoming } from './turn-state';

/**
 * The lifecycle of every conversation's turns: admission (new / injected / replacing / waiting),
 * the start, the close (reply, title, state, `done`, the next waiting turn), cancel and forget.
 * One turn at a time per conversation. The engine call is in turn-launch.ts, the event fan-out in
 * engine-event-fanout.ts, permissions in permission-relay.ts, the allowance in allowance.ts.
 */

export interface TurnHooks {
  /**
   * Runs in a turn's closing phase, after the agent's reply ended and before `done`.
   * A test seam: holding it open makes the "turn was already closing" row testable.
   */
  closing?: (info: { conversationId: string; turnId: string }) => Promise<void> | void;
}

export interface TurnManagerOptions {
  store: ConversationStore;
  engine: EngineHost;
  agentSettings?: AgentSettingsLookup;
  /** A fork's carried-over messages, for the agent's first session in it (conversation-forks.ts). */
  seedOf?: LaunchDeps['seedOf'];
  timers: Timers;
  allowance: Allowance;
  permissionTimeoutMs?: number;
  hooks?: TurnHooks;
  /**
   * Several processes on one PostgreSQL: events go through the store and any process streams them; turns
   * left open by a process that died are closed by the cluster's heartbeat (cluster/agent-leases.ts), not here.
   */
  sharedEvents?: SharedEvents;
}

/** What an admission reads from the store, in its transaction, before it decides. */
interface AdmissionReads {
  seen: Record<string, unknown> | null;
  refusal: string | null;
  launch: LaunchSettings;
  untitled: boolean;
}

export class TurnManager {
  private readonly runtimes: ConversationRuntimes;
  private readonly launchDeps: LaunchDeps;
  private draining = false;
  /** Turns a previous run left open are closed before the first admission. */
  private readonly ready: Promise<void>;
  /** The admission under way (set only while its decision runs) and the writes it made. */
  private tx: Executor | undefined;
  private readonly txWrites: Promise<unknown>[] = [];

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
      finish: (rt, turn, result) => this.finish(rt, turn, result),
      persist: (write) => this.persist(() => write()),
    };
    this.ready = options.sharedEvents
      ? Promise.resolve()
      : closeInterruptedTurns(options.store, this.runtimes, this.now());
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
    if (this.draining) return { kind: 'draining' };
    await this.ready;
    const launch = await readLaunchSettings(this.launchDeps, s);
    const { store, allowance } = this.options;
    return store.atomic(async (trx) => {
      await lockRow(trx, 'conversations', s.conversationId);
      const seen = s.turnId ? await store.findRequest(s.conversationId, s.turnId, trx) : null;
      const refusal = seen ? null : await allowance.refusal(s.personId, trx);
      const untitled = (await store.findAny(s.conversationId, trx))?.title === null;
      this.tx = trx;
      let result: SubmitResult;
      try {
        result = this.admit(s, { seen, refusal, launch, untitled });
      } finally {
        this.tx = undefined;
      }
      const writes = await Promise.allSettled(this.txWrites.splice(0));
      for (const write of writes) if (write.status === 'rejected') throw write.reason;
      return result;
    });
  }

  /**
   * Records in the store: during an admission, on its transaction; otherwise queued in order after the
   * writes before it (a failure is logged: the turn goes on in memory).
   */
  private persist(write: (on: Executor | undefined) => Promise<unknown>): void {
    const done = write(this.tx);
    if (this.tx) this.txWrites.push(done);
    else done.catch((error: unknown) => console.error(`turns: not recorded: ${(error as Error).message}`));
  }

  private admit(s: Submission, read: AdmissionReads): SubmitResult {
    const { store, engine } = this.options;
    if (s.turnId) {
      const seen = read.seen;
      if (seen) {
        const accepted = {
          ...acceptedFromRecord(seen),
          repeated: true,
          queueLength: engine.queuedCount(s.agentId),
        };
        return { kind: 'accepted', accepted };
      }
    }
    const refusal = read.refusal;
    if (refusal) return { kind: 'quota_exhausted', message: refusal };

    const rt = this.runtimes.of(s.conversationId);
    const current = rt.current;
    let route = routeIncoming(current && { ...current, closing: isClosing(current) }, s.requester);
    let accepted: Accepted | null = null;

    if (route === 'inject' && current) {
      accepted = this.inject(current, s);
      if (!accepted) route = current.requester === s.requester ? 'replace' : 'queue';
    }
    if (!accepted) {
      const turn = newTurn(s, read.launch, read.untitled);
      if (route === 'queue' && current) {
        turn.state = 'queued';
        const at = this.now();
        this.persist((on) =>
          store.insertTurn(s.conversationId, turn.turnId, s.personId, s.requester, 'queued', at, on),
        );
        rt.waiting.push(turn);
        accepted = acceptedOf(turn, { state: 'queued', queueLength: engine.queuedCount(s.agentId) });
      } else {
        const replacing = route === 'replace' && current !== null;
        if (replacing) this.stopNow(rt, current!, false);
        const state = this.begin(rt, turn, true);
        accepted = acceptedOf(turn, {
          state,
          queueLength:
            turn.handle?.queueLength ?? engine.queuedCount(s.agentId) + (state === 'queued' ? 1 : 0),
          replaced: replacing,
        });
      }
    }
    const answer = accepted;
    const at = this.now();
    if (s.turnId) this.persist((on) => store.recordRequest(s.conversationId, s.turnId!, answer, at, on));
    return { kind: 'accepted', accepted };
  }

  /** Joins a message to the turn in flight; null when the engine no longer takes input. */
  private inject(turn: Turn, s: Submission): Accepted | null {
    if (turn.handle) {
      if (!turn.handle.inject(s.content, s.attachments)) return null;
    } else {
      turn.early.push({ content: s.content, attachments: s.attachments });
    }
    const at = this.now();
    this.persist((on) =>
      this.options.store.addMessage(s.conversationId, turn.turnId, 'user', s.content, at, on),
    );
    return acceptedOf(turn, {
      state: turn.state === 'running' ? 'running' : 'queued',
      queueLength: this.options.engine.queuedCount(s.agentId),
      injected: true,
    });
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

  // Ending turns

  private async finish(rt: ConversationRuntime, turn: Turn, result: TurnResult): Promise<void> {
    if (isTerminal(turn.state)) return;
    turn.closing = true;
    const state: TurnState =
      result.stopReason === 'error' ? 'error' : result.stopReason === 'cancelled' ? 'stopped' : 'done';
    if (state === 'error') {
      rt.log.append('error', {
        message: result.error ?? 'The agent failed without saying why.',
        code: result.errorCode ?? null,
      });
    } else if (result.interruptedBy) {
      rt.log.append('status', { phase: 'interrumpido', motivo: result.interruptedBy, turnId: turn.turnId });
    }
    try {
      await this.options.hooks?.closing?.({ conversationId: turn.conversationId, turnId: turn.turnId });
    } catch {
      // A failing hook must not keep a turn open.
    }
    if (isTerminal(turn.state)) return; // replaced while closing
    this.close(rt, turn, state);
  }

  /** Stops a turn at once (replacement, cancel of a turn not yet with the engine). */
  private stopNow(rt: ConversationRuntime, turn: Turn, startNext: boolean): void {
    turn.abort.abort();
    if (turn.state === 'queued' && rt.waiting.includes(turn)) {
      rt.waiting.splice(rt.waiting.indexOf(turn), 1);
      turn.state = 'stopped';
      const at = this.now();
      this.persist((on) =>
        this.options.store.setTurnState(turn.conversationId, turn.turnId, 'stopped', at, on),
      );
      turn.markFinished();
      return;
    }
    this.close(rt, turn, 'stopped', startNext);
  }

  /** Final bookkeeping of the current turn: reply, title, state, `done`, then the next turn. */
  private close(rt: ConversationRuntime, turn: Turn, state: TurnState, startNext = true): void {
    const { store } = this.options;
    const now = this.now();
    turn.state = state;
    turn.closing = true;
    rt.broker.cancelAll();
    if (turn.reply.trim() !== '')
      this.persist((on) =>
        store.addMessage(turn.conversationId, turn.turnId, 'assistant', turn.reply, now, on),
      );
    if (turn.firstTurn) {
      const title = titleFromMessage(turn.content);
      this.persist((on) => store.titleIfEmpty(turn.conversationId, title, on));
      // Known from admission (the write above may still be queued): `title` comes before `done`.
      if (turn.untitled) rt.log.append('title', { title });
    }
    const tokens = turn.tokens;
    if (tokens > 0) this.persist((on) => store.setTurnTokens(turn.conversationId, turn.turnId, tokens, on));
    this.persist((on) => store.setTurnState(turn.conversationId, turn.turnId, state, now, on));
    const next = startNext ? rt.waiting.shift() : undefined;
    // `estado` on done is our addition: the final state, so clients need no extra request.
    rt.log.endTurn(startNext && !next, { estado: state });
    rt.current = null;
    turn.markFinished();
    if (next) this.begin(rt, next, false);
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

  // Reading

  /** Subscribes to a conversation's events; `replayed` comes first, then live events. */
  subscribe(conversationId: string, listener: EventListener, lastEventId?: string | null) {
    const shared = this.options.sharedEvents;
    if (shared) return shared.subscribe(conversationId, listener, lastEventId);
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
