import type { AgentMachine } from './machine';
import { MachinePool, type Slot } from './machine-pool';
import { SessionMap } from './session-map';
import { TurnInbox } from './turn-inbox';
import { runTurnOnMachine } from './turn-runner';
import { whenAborted } from './when-aborted';
import type {
  EngineHost,
  EngineHostOptions,
  ModelOption,
  RunTurnOptions,
  TurnHandle,
  TurnResult,
} from './types';
import { ENGINES_WITHOUT_MACHINE, MODEL_AGENT_ENGINE } from './types';
import { modelChoices } from '../model-agent/handoff';
import { findLegacyModels, findModelSelector, emptyUsage } from './update-mapper';
import { agentWorkspaceDir } from '../workspace/agent-folders';

/**
 * The engine layer of the service: machines per agent, the awake cap with its
 * FIFO queue, idle stops, and turns run over ACP. See `./types` for the
 * contract.
 */
export function createEngineHost(options: EngineHostOptions): EngineHost {
  return new Host(options);
}

class Host implements EngineHost {
  private readonly pool: MachinePool;
  private readonly sessionMap: SessionMap;
  private readonly cancelGraceMs: number;
  private readonly log: (line: string) => void;
  private closed = false;

  constructor(private readonly options: EngineHostOptions) {
    this.sessionMap = new SessionMap(options.dataDir);
    this.cancelGraceMs = options.cancelGraceMs ?? 5000;
    this.log = options.log ?? (() => undefined);
    this.pool = new MachinePool({
      engines: options.engines,
      maxMachines: options.maxMachines,
      idleMs: options.idleMs,
      log: this.log,
    });
  }

  hasMachine(engine: string): boolean {
    return !ENGINES_WITHOUT_MACHINE.includes(engine);
  }

  isAwake(agentId: string): boolean {
    return this.pool.awake(agentId) !== undefined;
  }

  queuedCount(agentId?: string): number {
    return this.pool.queuedCount(agentId);
  }

  wouldQueue(agentId: string): boolean {
    return this.pool.wouldQueue(agentId);
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
      queueLength: this.queuedCount(turn.agentId),
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
    const acquisition = this.pool.acquire(turn.agentId, turn.engine, workspaceDir);
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
          this.pool.release(slot);
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
      ...(this.runsModelAgent(turn.engine) ? { handoff: () => this.options.handoff!(turn.agentId) } : {}),
    });
  }

  /** Whether the engine runs the model agent (not a command configured in its place) and it can be handed providers. */
  takesModelPerTurn(engine: string): boolean {
    return this.runsModelAgent(engine);
  }

  private runsModelAgent(engine: string): boolean {
    return (
      engine === MODEL_AGENT_ENGINE &&
      this.options.handoff !== undefined &&
      !this.options.engines?.[engine]?.command.length
    );
  }

  /** Holds a machine for an internal job (models, restart), queueing like a turn. */
  private async withMachine<T>(
    agentId: string,
    engine: string,
    job: (machine: AgentMachine, slot: Slot) => Promise<T>,
  ): Promise<T> {
    const acquisition = this.pool.acquire(agentId, engine, agentWorkspaceDir(this.options.dataDir, agentId));
    const slot = await acquisition.slot;
    try {
      return await job(await slot.ready, slot);
    } finally {
      this.pool.release(slot);
    }
  }

  // -------------------------------------------------------------------------
  // Agent-level operations
  // -------------------------------------------------------------------------

  async models(agentId: string, engine: string): Promise<{ options: ModelOption[]; current: string }> {
    const none = { options: [], current: '' };
    if (!this.hasMachine(engine) || this.closed) return none;
    if (this.runsModelAgent(engine)) {
      // The model agent offers the person's providers' models: known here, without waking a machine.
      const options = modelChoices((await this.options.handoff!(agentId)).providers).map(({ id, label }) => ({
        id,
        label,
      }));
      return { options, current: options[0]?.id ?? '' };
    }
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

  async restart(agentId: string, engine: string): Promise<{ restarted: boolean; sandboxId: string }> {
    if (!this.hasMachine(engine) || this.closed) return { restarted: false, sandboxId: '' };
    const awake = this.pool.awake(agentId);
    const workspaceDir = awake?.workspaceDir ?? agentWorkspaceDir(this.options.dataDir, agentId);
    // Replace in place, so the slot is not handed to a waiting turn meanwhile.
    const slot = awake
      ? this.pool.spawn(agentId, engine, workspaceDir, this.pool.retire(awake, 'restart'))
      : null;
    if (slot) this.pool.use(slot);
    try {
      if (slot) {
        await slot.ready;
        return { restarted: true, sandboxId: slot.sandboxId };
      }
      return await this.withMachine(agentId, engine, async (_machine, fresh) => ({
        restarted: true,
        sandboxId: fresh.sandboxId,
      }));
    } catch (error) {
      this.log(`[${agentId}] restart failed: ${String(error)}`);
      return { restarted: false, sandboxId: slot?.sandboxId ?? '' };
    } finally {
      if (slot) this.pool.release(slot);
    }
  }

  async stop(agentId: string): Promise<void> {
    const slot = this.pool.awake(agentId);
    if (!slot) return;
    await this.pool.retire(slot, 'stop');
    this.pool.pump();
  }

  async stopEngine(engine: string): Promise<void> {
    const slots = this.pool.slotsOf(engine);
    await Promise.all(slots.map((slot) => this.pool.retire(slot, 'restart')));
    this.pool.pump();
  }

  async forgetConversation(agentId: string, conversationId: string): Promise<void> {
    await this.sessionMap.forgetConversation(agentId, conversationId);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.close();
    await this.sessionMap.flush();
  }
}
