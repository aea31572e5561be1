import { engineCommand } from './agent-command';
import { AgentMachine, type StopCause } from './machine';
import { SessionMap } from './session-map';
import { runTurnOnMachine, TurnInbox, whenAborted } from './turn-runner';
import type {
  EngineHost,
  EngineHostOptions,
  ModelOption,
  RunTurnOptions,
  TurnHandle,
  TurnResult,
} from './types';
import { ENGINES_WITHOUT_MACHINE } from './types';
import { findLegacyModels, findModelSelector, emptyUsage } from './update-mapper';
import { agentWorkspaceDir } from '../workspace/agent-folders';

/** One awake (or waking) machine slot. */
interface Slot {
  agentId: string;
  engine: string;
  workspaceDir: string;
  sandboxId: string;
  /** Spawned and initialized. Rejects when the agent could not start. */
  ready: Promise<AgentMachine>;
  machine: AgentMachine | null;
  /** Turns (and internal jobs) using the machine right now. */
  users: number;
  idleTimer: NodeJS.Timeout | null;
  lastUsed: number;
  retired: StopCause | null;
}

/** A turn (or job) waiting for a machine. */
interface Waiter {
  agentId: string;
  engine: string;
  workspaceDir: string;
  grant: (slot: Slot) => void;
  /** The host closed before a machine came free. */
  abandon: () => void;
}

interface Acquisition {
  queued: boolean;
  slot: Promise<Slot>;
  /** Leaves the queue; false when the machine was already granted. */
  cancel: () => boolean;
}

/**
 * The engine layer of the service: machines per agent, the awake cap with its
 * FIFO queue, idle stops, and turns run over ACP. See `./types` for the
 * contract.
 */
export function createEngineHost(options: EngineHostOptions): EngineHost {
  return new Host(options);
}

class Host implements EngineHost {
  private readonly slots = new Map<string, Slot>();
  private readonly waiting: Waiter[] = [];
  private readonly sessionMap: SessionMap;
  private readonly maxMachines: number;
  private readonly idleMs: number;
  private readonly cancelGraceMs: number;
  private readonly log: (line: string) => void;
  private spawnCount = 0;
  private closed = false;
  private readonly stopping = new Set<Promise<void>>();

  constructor(private readonly options: EngineHostOptions) {
    this.sessionMap = new SessionMap(options.dataDir);
    this.maxMachines = Math.max(1, options.maxMachines ?? 4);
    this.idleMs = options.idleMs ?? 10 * 60_000;
    this.cancelGraceMs = options.cancelGraceMs ?? 5000;
    this.log = options.log ?? (() => undefined);
  }

  hasMachine(engine: string): boolean {
    return !ENGINES_WITHOUT_MACHINE.includes(engine);
  }

  isAwake(agentId: string): boolean {
    return this.slots.has(agentId);
  }

  queuedCount(agentId?: string): number {
    return agentId === undefined
      ? this.waiting.length
      : this.waiting.filter((w) => w.agentId === agentId).length;
  }

  wouldQueue(agentId: string): boolean {
    if (this.slots.has(agentId)) return false;
    if (this.waiting.length > 0) return true;
    return this.slots.size >= this.maxMachines && this.leastRecentlyIdle() === null;
  }

  // -------------------------------------------------------------------------
  // Turns
  // -------------------------------------------------------------------------

  startTurn(turn: RunTurnOptions): TurnHandle {
    const inbox = new TurnInbox();
    let markRunning!: () => void;
    const running = new Promise<void>((resolve) => (markRunning = resolve));
    const handle = (queued: boolean, done: Promise<TurnResult>): TurnHandle => ({
      queued,
      enCola: this.queuedCount(turn.agentId),
      running,
      done,
      inject: (content, attachments) => inbox.inject(content, attachments),
      acceptsInput: () => !inbox.closing,
    });
    const endedEarly = (result: TurnResult) => {
      inbox.close();
      markRunning();
      return handle(false, Promise.resolve(result));
    };

    if (!this.hasMachine(turn.engine)) {
      return endedEarly({
        stopReason: 'error',
        errorCode: 'no_machine',
        error: `The engine ${turn.engine} has no machine.`,
      });
    }
    if (this.closed) {
      return endedEarly({ stopReason: 'cancelled', interruptedBy: 'close', errorCode: 'closed' });
    }
    if (turn.signal?.aborted) return endedEarly({ stopReason: 'cancelled' });

    const workspaceDir = turn.workspaceDir ?? agentWorkspaceDir(this.options.dataDir, turn.agentId);
    const acquisition = this.acquire(turn.agentId, turn.engine, workspaceDir);
    const onAbort = () => {
      if (acquisition.cancel()) {
        inbox.close();
        markRunning();
        cancelledWhileQueued({ stopReason: 'cancelled' });
      }
    };
    let cancelledWhileQueued: (result: TurnResult) => void = () => undefined;
    const leftQueue = new Promise<TurnResult>((resolve) => (cancelledWhileQueued = resolve));
    turn.signal?.addEventListener('abort', onAbort, { once: true });

    const ran = acquisition.slot.then(
      async (slot): Promise<TurnResult> => {
        turn.signal?.removeEventListener('abort', onAbort);
        markRunning();
        try {
          return await this.runOn(slot, turn, inbox);
        } catch (error) {
          // Nothing above should throw (failures are results); if it does, the turn still ends cleanly.
          inbox.close();
          this.log(`[${turn.agentId}] turn failed unexpectedly: ${String(error)}`);
          const message = error instanceof Error ? error.message : String(error);
          return { stopReason: 'error', errorCode: 'agent_error', error: message };
        } finally {
          this.release(slot);
        }
      },
      (): TurnResult => {
        inbox.close();
        markRunning();
        return { stopReason: 'cancelled', interruptedBy: 'close', errorCode: 'closed' };
      },
    );
    return handle(acquisition.queued, Promise.race([ran, leftQueue]));
  }

  runTurn(turn: RunTurnOptions): Promise<TurnResult> {
    return this.startTurn(turn).done;
  }

  private async runOn(slot: Slot, turn: RunTurnOptions, inbox: TurnInbox): Promise<TurnResult> {
    let machine: AgentMachine | 'cancelled';
    try {
      // A turn cancelled while its machine is still starting ends at once.
      machine = await Promise.race([slot.ready, whenAborted(turn.signal).then(() => 'cancelled' as const)]);
    } catch (error) {
      inbox.close();
      if (slot.retired)
        return { stopReason: 'cancelled', interruptedBy: slot.retired === 'idle' ? 'stop' : slot.retired };
      return {
        stopReason: 'error',
        errorCode: 'spawn_failed',
        error: error instanceof Error ? error.message : String(error),
      };
    }
    if (machine === 'cancelled') {
      inbox.close();
      return { stopReason: 'cancelled' };
    }
    return runTurnOnMachine(machine, turn, inbox, {
      sessionMap: this.sessionMap,
      workspaceDir: slot.workspaceDir,
      cancelGraceMs: this.cancelGraceMs,
      log: this.log,
      rememberModels: (models) => {
        void this.sessionMap.setModels(turn.agentId, turn.engine, models).catch(() => undefined);
      },
    });
  }

  // -------------------------------------------------------------------------
  // Machine slots and the awake cap
  // -------------------------------------------------------------------------

  /** Admission: a slot now (awake, free, or by evicting an idle machine), else a place in the queue. */
  private acquire(agentId: string, engine: string, workspaceDir: string): Acquisition {
    const now = this.admit(agentId, engine, workspaceDir);
    if (now) {
      this.use(now);
      return { queued: false, slot: Promise.resolve(now), cancel: () => false };
    }
    let waiter!: Waiter;
    const slot = new Promise<Slot>((resolve, reject) => {
      waiter = {
        agentId,
        engine,
        workspaceDir,
        grant: (granted) => {
          this.use(granted);
          resolve(granted);
        },
        abandon: () => reject(new Error('The engine host closed.')),
      };
    });
    this.waiting.push(waiter);
    return {
      queued: true,
      slot,
      cancel: () => {
        const index = this.waiting.indexOf(waiter);
        if (index < 0) return false;
        this.waiting.splice(index, 1);
        return true;
      },
    };
  }

  private admit(agentId: string, engine: string, workspaceDir: string): Slot | null {
    const awake = this.slots.get(agentId);
    if (awake) {
      if (awake.engine === engine) return awake;
      // The agent switched engines: its slot now runs the new engine's machine.
      return this.spawn(agentId, engine, workspaceDir, this.retire(awake, 'restart'));
    }
    if (this.waiting.length > 0) return null; // first come, first served
    if (this.slots.size < this.maxMachines) return this.spawn(agentId, engine, workspaceDir);
    const idle = this.leastRecentlyIdle();
    if (idle) return this.spawn(agentId, engine, workspaceDir, this.retire(idle, 'idle'));
    return null;
  }

  /** Gives freed capacity to waiting turns, oldest first; all waiters of one agent share its machine. */
  private pump(): void {
    while (this.waiting.length > 0 && !this.closed) {
      const first = this.waiting[0]!;
      let slot = this.slots.get(first.agentId);
      if (!slot) {
        if (this.slots.size < this.maxMachines) {
          slot = this.spawn(first.agentId, first.engine, first.workspaceDir);
        } else {
          const idle = this.leastRecentlyIdle();
          if (!idle) return;
          slot = this.spawn(first.agentId, first.engine, first.workspaceDir, this.retire(idle, 'idle'));
        }
      }
      for (const waiter of this.waiting.filter((w) => w.agentId === first.agentId)) {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        waiter.grant(slot);
      }
    }
  }

  private leastRecentlyIdle(): Slot | null {
    let best: Slot | null = null;
    for (const slot of this.slots.values()) {
      if (slot.users === 0 && (!best || slot.lastUsed < best.lastUsed)) best = slot;
    }
    return best;
  }

  /** Creates a slot and starts its machine (after `after`, the stop of the machine it replaces). */
  private spawn(agentId: string, engine: string, workspaceDir: string, after?: Promise<void>): Slot {
    const sandboxId = `sbx-${agentId}-${++this.spawnCount}`;
    const slot: Slot = {
      agentId,
      engine,
      workspaceDir,
      sandboxId,
      machine: null,
      ready: Promise.resolve(null as unknown as AgentMachine),
      users: 0,
      idleTimer: null,
      lastUsed: Date.now(),
      retired: null,
    };
    slot.ready = (async () => {
      await after;
      if (slot.retired) throw new Error('The machine was stopped before it started.');
      const command = engineCommand(engine, this.options.engines);
      if (!command) throw new Error(`The engine ${engine} has no machine.`);
      const machine = new AgentMachine({ agentId, engine, command, workspaceDir, sandboxId, log: this.log });
      slot.machine = machine;
      void machine.exited.then(() => this.onExit(slot));
      this.log(`[${agentId}] starting ${engine} machine ${sandboxId}: ${command.command.join(' ')}`);
      try {
        await machine.start();
      } catch (error) {
        await machine.stop('stop');
        throw error;
      }
      if (slot.retired) await machine.stop(slot.retired);
      return machine;
    })();
    slot.ready.catch((error: unknown) => {
      this.log(`[${agentId}] machine ${sandboxId} failed to start: ${String(error)}`);
      this.onExit(slot);
    });
    this.slots.set(agentId, slot);
    return slot;
  }

  /** Takes a slot out of service and stops its machine. Frees capacity at once; resolves when stopped. */
  private retire(slot: Slot, cause: StopCause): Promise<void> {
    if (this.slots.get(slot.agentId) === slot) this.slots.delete(slot.agentId);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.retired ??= cause;
    const stopped = (async () => {
      const machine = slot.machine ?? (await slot.ready.catch(() => null));
      await machine?.stop(cause);
    })();
    this.stopping.add(stopped);
    void stopped.finally(() => this.stopping.delete(stopped));
    return stopped;
  }

  private onExit(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    if (this.slots.get(slot.agentId) === slot) {
      this.slots.delete(slot.agentId);
      this.pump();
    }
  }

  private use(slot: Slot): void {
    slot.users += 1;
    slot.lastUsed = Date.now();
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
  }

  private release(slot: Slot): void {
    slot.users -= 1;
    slot.lastUsed = Date.now();
    if (slot.users > 0 || this.slots.get(slot.agentId) !== slot) return;
    if (this.waiting.some((w) => w.agentId !== slot.agentId) && this.slots.size >= this.maxMachines) {
      this.pump(); // someone waits for a machine: this idle one makes room now
      return;
    }
    slot.idleTimer = setTimeout(() => {
      this.log(`[${slot.agentId}] idle for ${this.idleMs} ms, stopping ${slot.sandboxId}`);
      void this.retire(slot, 'idle').then(() => this.pump());
    }, this.idleMs);
    slot.idleTimer.unref();
  }

  /** Holds a machine for an internal job (models, restart), queueing like a turn. */
  private async withMachine<T>(
    agentId: string,
    engine: string,
    job: (machine: AgentMachine, slot: Slot) => Promise<T>,
  ): Promise<T> {
    const acquisition = this.acquire(agentId, engine, agentWorkspaceDir(this.options.dataDir, agentId));
    const slot = await acquisition.slot;
    try {
      return await job(await slot.ready, slot);
    } finally {
      this.release(slot);
    }
  }

  // -------------------------------------------------------------------------
  // Agent-level operations
  // -------------------------------------------------------------------------

  async models(agentId: string, engine: string): Promise<{ options: ModelOption[]; current: string }> {
    const none = { options: [], current: '' };
    if (!this.hasMachine(engine) || this.closed) return none;
    const cached = await this.sessionMap.modelsOf(agentId, engine);
    if (cached) return cached;
    return this.withMachine(agentId, engine, async (machine) => {
      // A throwaway session: ACP offers models per session.
      const opened = await machine.newSession([]);
      const selector = findModelSelector(opened.configOptions) ?? findLegacyModels(opened.raw);
      machine.sessionState.set(opened.sessionId, { usage: emptyUsage(), selector });
      if (!selector) return none;
      const models = { options: selector.options, current: selector.current };
      await this.sessionMap.setModels(agentId, engine, models);
      return models;
    });
  }

  async restart(agentId: string, engine: string): Promise<{ reiniciado: boolean; sandboxId: string }> {
    if (!this.hasMachine(engine) || this.closed) return { reiniciado: false, sandboxId: '' };
    const awake = this.slots.get(agentId);
    const workspaceDir = awake?.workspaceDir ?? agentWorkspaceDir(this.options.dataDir, agentId);
    // Replace in place, so the slot is not handed to a waiting turn meanwhile.
    const slot = awake ? this.spawn(agentId, engine, workspaceDir, this.retire(awake, 'restart')) : null;
    if (slot) this.use(slot);
    try {
      if (slot) {
        await slot.ready;
        return { reiniciado: true, sandboxId: slot.sandboxId };
      }
      return await this.withMachine(agentId, engine, async (_machine, fresh) => ({
        reiniciado: true,
        sandboxId: fresh.sandboxId,
      }));
    } catch (error) {
      this.log(`[${agentId}] restart failed: ${String(error)}`);
      return { reiniciado: false, sandboxId: slot?.sandboxId ?? '' };
    } finally {
      if (slot) this.release(slot);
    }
  }

  async stop(agentId: string): Promise<void> {
    const slot = this.slots.get(agentId);
    if (!slot) return;
    await this.retire(slot, 'stop');
    this.pump();
  }

  async forgetConversation(agentId: string, conversationId: string): Promise<void> {
    await this.sessionMap.forgetConversation(agentId, conversationId);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.abandon();
    for (const slot of [...this.slots.values()]) void this.retire(slot, 'close');
    await Promise.all([...this.stopping]);
    await this.sessionMap.flush();
  }
}
