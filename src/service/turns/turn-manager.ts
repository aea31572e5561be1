import { randomUUID } from 'node:crypto';
import type { AcceptedTurnState, TurnState } from '../../shared/api';
import type {
  EngineAttachment,
  EngineEvent,
  EngineHost,
  EngineMcpServer,
  PermissionAnswer,
  PermissionRequest,
  TurnHandle,
  TurnResult,
} from '../engine/types';
import type { ConversationStore } from './conversation-store';
import { ConversationEventLog, type EventListener, type LoggedEvent } from './event-log';
import {
  autoAllowOption,
  PERMISSION_TIMEOUT_MS,
  PermissionBroker,
  type ResolveResult,
} from './permission-broker';
import { titleFromMessage } from './thread-title';
import type { Timers } from './timers';
import { isFinal, routeIncoming } from './turn-state';

/**
 * Runs the turns of every conversation: admission (new / injected / replacing / waiting),
 * the engine call, event fan-out to the conversation's log, permissions, and the durable
 * record (turn states, messages). One turn at a time per conversation.
 */

export interface QuotaConfig {
  /** Turns a person may start in total (unset: unlimited). */
  turns?: number;
  /** Tokens (usage input + output) a person may spend in total (unset: unlimited). */
  tokens?: number;
}

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
  /**
   * The agent's saved settings for a turn on a channel (its model and MCP servers, lent tools
   * included). Read at launch, so a change applies from the next turn.
   */
  agentSettings?: (
    agentId: string,
    channel: 'chat' | 'programado',
  ) => { model?: string; mcpServers?: EngineMcpServer[] };
  timers: Timers;
  quota?: QuotaConfig;
  permissionTimeoutMs?: number;
  hooks?: TurnHooks;
}

export interface Submission {
  agentId: string;
  engine: string;
  personId: string;
  conversationId: string;
  /** Who asks: an OAuth grant family, or `programado` for scheduled turns. */
  requester: string;
  /** The caller's idempotency key (`turnId` of the body). */
  requestId?: string;
  content: string;
  images?: EngineAttachment[];
  primerTurno?: boolean;
  permisos?: 'auto' | 'preguntar';
}

export interface Accepted {
  turnId: string;
  key: string;
  estado: AcceptedTurnState;
  enCola: number;
  reemplazoAnterior: boolean;
  repetido: boolean;
  inyectado: boolean;
}

export type SubmitResult =
  { kind: 'accepted'; body: Accepted } | { kind: 'draining' } | { kind: 'quota_exhausted'; message: string };

export type CancelOutcome = { detenido: boolean; motivo?: 'sin_turno' | 'otro_solicitante' };

interface Turn {
  turnId: string;
  conversationId: string;
  agentId: string;
  engine: string;
  personId: string;
  requester: string;
  permisos: 'auto' | 'preguntar';
  primerTurno: boolean;
  content: string;
  images?: EngineAttachment[];
  estado: TurnState;
  /** Our closing phase (reply ended, finishing up) or a stop under way. */
  closing: boolean;
  /** The engine has ended its part of the turn. */
  engineEnded: boolean;
  handle: TurnHandle | null;
  abort: AbortController;
  /** Injections that arrived before the engine call started. */
  early: { content: string; images?: EngineAttachment[] }[];
  reply: string;
  tokens: number;
  finished: Promise<void>;
  markFinished: () => void;
}

interface Runtime {
  log: ConversationEventLog;
  broker: PermissionBroker;
  current: Turn | null;
  /** Turns waiting for the closing turn of someone else to finish. */
  waiting: Turn[];
  /** Resolves when the engine is done with this conversation's previous turn. */
  engineFree: Promise<void>;
  engineBusy: boolean;
  models: { options: { id: string; label: string }[]; current: string | null } | null;
}

export const SERVICE_RESTARTED_MESSAGE =
  'The service restarted while this turn was running, so the turn was interrupted. Send your message again to continue.';

export function turnKey(conversationId: string, turnId: string): string {
  return `${conversationId}/${turnId}`;
}

export class TurnManager {
  private readonly runtimes = new Map<string, Runtime>();
  private draining = false;

  constructor(private readonly options: TurnManagerOptions) {
    // A previous run stopped under these turns, and their agent sessions died with it: they end
    // as errors, and whoever subscribes is told so (a reconnecting client would otherwise wait).
    const now = options.timers.now();
    for (const row of options.store.unfinishedTurns()) {
      options.store.setTurnState(row.conversation_id, row.turn_id, 'error', now);
      this.runtime(row.conversation_id).log.closeLeftover(row.turn_id, SERVICE_RESTARTED_MESSAGE, 'error');
    }
  }

  /** While draining, new messages answer 503 `reiniciando` (the service is about to restart). */
  setDraining(on: boolean): void {
    this.draining = on;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  // ---------------------------------------------------------------------------------------
  // Admission
  // ---------------------------------------------------------------------------------------

  /**
   * Admits a message. Synchronous from the idempotency check to the record of the answer, so
   * concurrent identical POSTs can never both create a turn.
   */
  submit(s: Submission): SubmitResult {
    if (this.draining) return { kind: 'draining' };
    // One transaction: the turn, its message and the idempotency record land together.
    return this.options.store.atomic(() => this.admit(s));
  }

  private admit(s: Submission): SubmitResult {
    const { store } = this.options;
    if (s.requestId) {
      const seen = store.findRequest(s.conversationId, s.requestId);
      if (seen) {
        const body = seen as unknown as Accepted;
        return {
          kind: 'accepted',
          body: { ...body, repetido: true, enCola: this.options.engine.queuedCount(s.agentId) },
        };
      }
    }
    const quota = this.quotaLeft(s.personId);
    if (quota) return { kind: 'quota_exhausted', message: quota };

    const rt = this.runtime(s.conversationId);
    const current = rt.current;
    let route = routeIncoming(current && { ...current, closing: this.isClosing(current) }, s.requester);
    let body: Accepted | null = null;

    if (route === 'inject' && current) {
      body = this.inject(current, s);
      if (!body) route = current.requester === s.requester ? 'replace' : 'queue';
    }
    if (!body) {
      const turn = this.newTurn(s, s.requestId);
      if (route === 'queue' && current) {
        turn.estado = 'queued';
        store.insertTurn(s.conversationId, turn.turnId, s.personId, s.requester, 'queued', this.now());
        rt.waiting.push(turn);
        body = this.accepted(turn, { estado: 'queued', enCola: this.options.engine.queuedCount(s.agentId) });
      } else {
        const replacing = route === 'replace' && current !== null;
        if (replacing) this.stopNow(rt, current!, false);
        const estado = this.begin(rt, turn, true);
        body = this.accepted(turn, {
          estado,
          enCola:
            turn.handle?.enCola ?? this.options.engine.queuedCount(s.agentId) + (estado === 'queued' ? 1 : 0),
          reemplazoAnterior: replacing,
        });
      }
    }
    if (s.requestId) store.recordRequest(s.conversationId, s.requestId, body, this.now());
    return { kind: 'accepted', body };
  }

  /** Why the person's allowance refuses a new turn, or null (also asked by `try`). */
  quotaLeft(personId: string): string | null {
    const { quota } = this.options;
    if (!quota || (quota.turns === undefined && quota.tokens === undefined)) return null;
    const used = this.options.store.usageOf(personId);
    if (quota.turns !== undefined && used.turns >= quota.turns) {
      return `Has usado los ${quota.turns} turnos de tu asignación.`;
    }
    if (quota.tokens !== undefined && used.tokens >= quota.tokens) {
      return `Has usado los ${quota.tokens} tokens de tu asignación.`;
    }
    return null;
  }

  private newTurn(s: Submission, turnId?: string): Turn {
    let markFinished!: () => void;
    const finished = new Promise<void>((resolve) => (markFinished = resolve));
    return {
      turnId: turnId ?? randomUUID(),
      conversationId: s.conversationId,
      agentId: s.agentId,
      engine: s.engine,
      personId: s.personId,
      requester: s.requester,
      permisos: s.permisos ?? 'auto',
      primerTurno: s.primerTurno ?? false,
      content: s.content,
      images: s.images,
      estado: 'queued',
      closing: false,
      engineEnded: false,
      handle: null,
      abort: new AbortController(),
      early: [],
      reply: '',
      tokens: 0,
      finished,
      markFinished,
    };
  }

  private accepted(turn: Turn, extra: Partial<Accepted> & Pick<Accepted, 'estado' | 'enCola'>): Accepted {
    return {
      turnId: turn.turnId,
      key: turnKey(turn.conversationId, turn.turnId),
      reemplazoAnterior: false,
      repetido: false,
      inyectado: false,
      ...extra,
    };
  }

  private isClosing(turn: Turn): boolean {
    if (turn.closing) return true;
    return turn.handle !== null && turn.estado === 'running' && !turn.handle.acceptsInput();
  }

  /** Joins a message to the turn in flight; null when the engine no longer takes input. */
  private inject(turn: Turn, s: Submission): Accepted | null {
    if (turn.handle) {
      if (!turn.handle.inject(s.content, s.images)) return null;
    } else {
      turn.early.push({ content: s.content, images: s.images });
    }
    this.options.store.addMessage(s.conversationId, turn.turnId, 'user', s.content, this.now());
    return this.accepted(turn, {
      estado: turn.estado === 'running' ? 'running' : 'queued',
      enCola: this.options.engine.queuedCount(s.agentId),
      inyectado: true,
    });
  }

  /**
   * Makes `turn` the conversation's current turn and hands it to the engine (at once when the
   * engine is done with the previous turn, else right after). Returns the admitted state.
   */
  private begin(rt: Runtime, turn: Turn, fresh: boolean): AcceptedTurnState {
    const { store, engine } = this.options;
    const now = this.now();
    rt.current = turn;
    rt.log.beginTurn(turn.turnId);
    store.addMessage(turn.conversationId, turn.turnId, 'user', turn.content, now);
    rt.log.append('started', { turnId: turn.turnId });
    let estado: AcceptedTurnState;
    if (!rt.engineBusy) {
      this.launch(rt, turn, false);
      estado = turn.handle!.queued ? 'queued' : 'running';
    } else {
      // The engine still winds down the turn before (a replacement): start right after it.
      estado = engine.wouldQueue(turn.agentId) ? 'queued' : 'running';
      void rt.engineFree.then(() => {
        if (rt.current === turn && !isFinal(turn.estado)) this.launch(rt, turn, true);
      });
    }
    turn.estado = estado;
    if (fresh) store.insertTurn(turn.conversationId, turn.turnId, turn.personId, turn.requester, estado, now);
    else store.setTurnState(turn.conversationId, turn.turnId, estado, now);
    rt.log.append('status', { phase: estado, turnId: turn.turnId });
    return estado;
  }

  private launch(rt: Runtime, turn: Turn, deferred: boolean): void {
    const { engine, store } = this.options;
    const saved = this.options.agentSettings?.(
      turn.agentId,
      turn.requester === 'programado' ? 'programado' : 'chat',
    );
    // A model chosen for this conversation wins over the agent's saved one.
    const model = store.modelOf(turn.conversationId) ?? saved?.model;
    rt.engineBusy = true;
    let freeEngine!: () => void;
    rt.engineFree = new Promise<void>((resolve) => (freeEngine = resolve));
    let handle: TurnHandle;
    try {
      handle = engine.startTurn({
        agentId: turn.agentId,
        engine: turn.engine,
        conversationId: turn.conversationId,
        content: turn.content,
        attachments: turn.images,
        model,
        ...(saved?.mcpServers ? { mcpServers: saved.mcpServers } : {}),
        onEvent: (event) => this.onEngineEvent(rt, turn, event),
        requestPermission: (req, signal) => this.onPermission(rt, turn, req, signal),
        signal: turn.abort.signal,
      });
    } catch (err) {
      // The engine refused the turn outright: it ends as an error, like a failed spawn.
      const failed = Promise.resolve<TurnResult>({ stopReason: 'error', error: (err as Error).message });
      handle = {
        queued: false,
        enCola: 0,
        running: Promise.resolve(),
        done: failed,
        inject: () => false,
        acceptsInput: () => false,
      };
    }
    turn.handle = handle;
    for (const extra of turn.early.splice(0)) handle.inject(extra.content, extra.images);
    if (handle.queued) {
      void handle.running.then(() => {
        if (rt.current !== turn || isFinal(turn.estado)) return;
        this.setEstado(turn, 'running');
        rt.log.append('status', { phase: 'running', turnId: turn.turnId });
      });
    } else if (deferred && turn.estado === 'queued' && rt.current === turn) {
      // Admitted as queued behind a previous turn; the engine runs it now.
      this.setEstado(turn, 'running');
      rt.log.append('status', { phase: 'running', turnId: turn.turnId });
    }
    void handle.done.then((result) => {
      turn.engineEnded = true;
      rt.engineBusy = false;
      freeEngine();
      return this.finish(rt, turn, result);
    });
  }

  // ---------------------------------------------------------------------------------------
  // Engine events and permissions
  // ---------------------------------------------------------------------------------------

  private onEngineEvent(rt: Runtime, turn: Turn, event: EngineEvent): void {
    if (rt.current !== turn || isFinal(turn.estado)) return;
    switch (event.type) {
      case 'chunk':
        turn.reply += event.text;
        rt.log.append('chunk', { text: event.text, turnId: turn.turnId });
        break;
      case 'thought':
        rt.log.append('thought', { text: event.text });
        break;
      case 'tool': {
        const { type: _type, ...tool } = event;
        rt.log.append('tool', tool);
        break;
      }
      case 'models':
        rt.models = { options: event.options, current: event.current };
        rt.log.append('models', { options: event.options, current: event.current });
        break;
      case 'usage': {
        const { type: _type, ...usage } = event;
        turn.tokens = usage.input + usage.output;
        rt.log.append('usage', usage);
        break;
      }
      case 'caps':
        rt.log.append('caps', { image: event.image });
        break;
    }
  }

  private async onPermission(
    rt: Runtime,
    turn: Turn,
    req: PermissionRequest,
    signal: AbortSignal,
  ): Promise<PermissionAnswer> {
    if (turn.permisos === 'auto') {
      const optionId = autoAllowOption(req.options);
      return optionId ? { optionId } : { denied: true };
    }
    if (rt.current !== turn || isFinal(turn.estado) || signal.aborted) return { denied: true };
    rt.log.append('permission', {
      id: req.id,
      title: req.title,
      tool: req.tool.title,
      toolCall: req.tool,
      options: req.options,
    });
    const onAbort = () => rt.broker.cancel(req.id);
    signal.addEventListener('abort', onAbort, { once: true });
    const outcome = await rt.broker.request(req.id, req.options);
    signal.removeEventListener('abort', onAbort);
    if (rt.current === turn && !isFinal(turn.estado)) {
      rt.log.append('permission-resolved', {
        id: req.id,
        optionId: outcome.outcome === 'selected' ? outcome.optionId : null,
        por: outcome.by,
      });
    }
    return outcome.outcome === 'selected' ? { optionId: outcome.optionId } : { denied: true };
  }

  /** POST permission. */
  resolvePermission(conversationId: string, id: string, optionId: string): ResolveResult {
    return this.runtimes.get(conversationId)?.broker.resolve(id, optionId) ?? 'not-open';
  }

  // ---------------------------------------------------------------------------------------
  // Ending turns
  // ---------------------------------------------------------------------------------------

  private async finish(rt: Runtime, turn: Turn, result: TurnResult): Promise<void> {
    if (isFinal(turn.estado)) return;
    turn.closing = true;
    const estado: TurnState =
      result.stopReason === 'error' ? 'error' : result.stopReason === 'cancelled' ? 'stopped' : 'done';
    if (estado === 'error') {
      rt.log.append('error', { message: result.error ?? 'El agente falló.', code: result.errorCode ?? null });
    } else if (result.interruptedBy) {
      rt.log.append('status', { phase: 'interrumpido', motivo: result.interruptedBy, turnId: turn.turnId });
    }
    try {
      await this.options.hooks?.closing?.({ conversationId: turn.conversationId, turnId: turn.turnId });
    } catch {
      // A failing hook must not keep a turn open.
    }
    if (isFinal(turn.estado)) return; // replaced while closing
    this.close(rt, turn, estado);
  }

  /** Stops a turn at once (replacement, cancel of a turn not yet with the engine). */
  private stopNow(rt: Runtime, turn: Turn, startNext: boolean): void {
    turn.abort.abort();
    if (turn.estado === 'queued' && rt.waiting.includes(turn)) {
      rt.waiting.splice(rt.waiting.indexOf(turn), 1);
      turn.estado = 'stopped';
      this.options.store.setTurnState(turn.conversationId, turn.turnId, 'stopped', this.now());
      turn.markFinished();
      return;
    }
    this.close(rt, turn, 'stopped', startNext);
  }

  /** Final bookkeeping of the current turn: reply, title, state, `done`, then the next turn. */
  private close(rt: Runtime, turn: Turn, estado: TurnState, startNext = true): void {
    const { store } = this.options;
    const now = this.now();
    turn.estado = estado;
    turn.closing = true;
    rt.broker.cancelAll();
    if (turn.reply.trim() !== '')
      store.addMessage(turn.conversationId, turn.turnId, 'assistant', turn.reply, now);
    if (turn.primerTurno) {
      const title = titleFromMessage(turn.content);
      if (store.titleIfEmpty(turn.conversationId, title)) rt.log.append('title', { title });
    }
    if (turn.tokens > 0) store.setTurnTokens(turn.conversationId, turn.turnId, turn.tokens);
    store.setTurnState(turn.conversationId, turn.turnId, estado, now);
    const next = startNext ? rt.waiting.shift() : undefined;
    // `estado` on done is our addition: the final state, so clients need no extra request.
    rt.log.endTurn(startNext && !next, { estado });
    rt.current = null;
    turn.markFinished();
    if (next) this.begin(rt, next, false);
  }

  /** POST cancel: only whoever requested the turn may stop it. */
  async cancel(conversationId: string, requester: string): Promise<CancelOutcome> {
    const rt = this.runtimes.get(conversationId);
    const turn = rt?.current;
    if (!rt || !turn || isFinal(turn.estado)) return { detenido: false, motivo: 'sin_turno' };
    if (turn.requester !== requester) return { detenido: false, motivo: 'otro_solicitante' };
    if (!turn.handle || turn.engineEnded) {
      this.stopNow(rt, turn, true);
    } else {
      turn.closing = true;
      turn.abort.abort();
    }
    await turn.finished;
    return { detenido: true };
  }

  // ---------------------------------------------------------------------------------------
  // Reading
  // ---------------------------------------------------------------------------------------

  /** Subscribes to a conversation's events; `replayed` comes first, then live events. */
  subscribe(conversationId: string, listener: EventListener, lastEventId?: string | null) {
    return this.runtime(conversationId).log.subscribe(listener, lastEventId);
  }

  /** The latest `models` a turn of this conversation reported (null before any). */
  knownModels(conversationId: string): { id: string; label: string }[] | null {
    return this.runtimes.get(conversationId)?.models?.options ?? null;
  }

  /** Current turn's id, or null when idle. */
  currentTurnId(conversationId: string): string | null {
    return this.runtimes.get(conversationId)?.current?.turnId ?? null;
  }

  /** Stops whatever runs in a conversation (archive) and forgets its live state. */
  async forget(conversationId: string): Promise<void> {
    const rt = this.runtimes.get(conversationId);
    if (!rt) return;
    for (const waiting of [...rt.waiting]) this.stopNow(rt, waiting, false);
    const turn = rt.current;
    if (turn) {
      if (!turn.handle) this.stopNow(rt, turn, false);
      else turn.abort.abort();
      await turn.finished;
    }
  }

  /** Turns in flight, for tests and shutdown. */
  activeTurns(): number {
    let n = 0;
    for (const rt of this.runtimes.values()) n += (rt.current ? 1 : 0) + rt.waiting.length;
    return n;
  }

  private runtime(conversationId: string): Runtime {
    let rt = this.runtimes.get(conversationId);
    if (!rt) {
      rt = {
        log: new ConversationEventLog(),
        broker: new PermissionBroker(
          this.options.timers,
          this.options.permissionTimeoutMs ?? PERMISSION_TIMEOUT_MS,
        ),
        current: null,
        waiting: [],
        engineFree: Promise.resolve(),
        engineBusy: false,
        models: null,
      };
      this.runtimes.set(conversationId, rt);
    }
    return rt;
  }

  private setEstado(turn: Turn, estado: TurnState): void {
    turn.estado = estado;
    this.options.store.setTurnState(turn.conversationId, turn.turnId, estado, this.now());
  }

  private now(): number {
    return this.options.timers.now();
  }
}

export type { LoggedEvent };
