import { engineCommand } from './agent-command';
import { AgentMachine } from './machine';
import type { StopCause } from './machine-types';
import type { EnginesConfig } from './types';

/** One awake (or waking) machine slot. */
export interface Slot {
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

export interface Acquisition {
  queued: boolean;
  slot: Promise<Slot>;
  /** Leaves the queue; false when the machine was already granted. */
  cancel: () => boolean;
}

/**
 * The machines awake, one slot per agent, under the awake cap: admission (a slot now, by evicting the least
 * recently idle machine, or a place in the FIFO queue), idle stops, and retiring a machine.
 */
export class MachinePool {
  private readonly slots = new Map<string, Slot>();
  private readonly waiting: Waiter[] = [];
  private readonly maxMachines: number;
  private readonly idleMs: number;
  private spawnCount = 0;
  private closed = false;
  private readonly stopping = new Set<Promise<void>>();

  constructor(
    private readonly options: {
      engines?: EnginesConfig;
      maxMachines?: number;
      idleMs?: number;
      log: (line: string) => void;
    },
  ) {
    this.maxMachines = Math.max(1, options.maxMachines ?? 4);
    this.idleMs = options.idleMs ?? 10 * 60_000;
  }

  private get log(): (line: string) => void {
    return this.options.log;
  }

  /** The agent's slot while its machine is awake (or waking). */
  awake(agentId: string): Slot | undefined {
    return this.slots.get(agentId);
  }

  /** The awake (or waking) slots running an engine. */
  slotsOf(engine: string): Slot[] {
    return [...this.slots.values()].filter((slot) => slot.engine === engine);
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

  /** Admission: a slot now (awake, free, or by evicting an idle machine), else a place in the queue. */
  acquire(agentId: string, engine: string, workspaceDir: string): Acquisition {
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
  pump(): void {
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

  leastRecentlyIdle(): Slot | null {
    let best: Slot | null = null;
    for (const slot of this.slots.values()) {
      if (slot.users === 0 && (!best || slot.lastUsed < best.lastUsed)) best = slot;
    }
    return best;
  }

  /** Creates a slot and starts its machine (after `after`, the stop of the machine it replaces). */
  spawn(agentId: string, engine: string, workspaceDir: string, after?: Promise<void>): Slot {
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
  retire(slot: Slot, cause: StopCause): Promise<void> {
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

  use(slot: Slot): void {
    slot.users += 1;
    slot.lastUsed = Date.now();
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
  }

  release(slot: Slot): void {
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

  /** Abandons the waiting turns and stops every machine; resolves when all have stopped. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.abandon();
    for (const slot of [...this.slots.values()]) void this.retire(slot, 'close');
    await Promise.all([...this.stopping]);
  }
}
