import type { EngineHost, EngineMcpServer, TurnHandle, TurnResult } from '../engine/types';
import type { ConversationStore } from '../conversations/conversation-store';
import type { ConversationRuntime } from './conversation-runtimes';
import { fanOutEngineEvent } from './engine-event-fanout';
import { relayPermission } from './permission-relay';
import type { LaunchSettings, Turn } from './turn-record';
import { isTerminal, type MessageText } from '../../shared/api';

/**
 * The agent's saved settings for a turn on a channel (its model and MCP servers, lent tools
 * included). Read when a turn is admitted, so a change applies from the next turn.
 */
export type AgentSettingsLookup = (
  agentId: string,
  channel: 'chat' | 'programado',
) =>
  | Promise<{ model?: string; mcpServers?: EngineMcpServer[] }>
  | { model?: string; mcpServers?: EngineMcpServer[] };

export interface LaunchDeps {
  engine: EngineHost;
  store: ConversationStore;
  agentSettings?: AgentSettingsLookup;
  /** The messages a forked conversation carried over; undefined for any other. */
  seedOf?: ((conversationId: string) => Promise<MessageText[] | undefined>) | undefined;
  now(): number;
  /** Records in the store, in order with the turn's other writes. */
  persist(write: () => Promise<unknown>): void;
  /** Called once the engine has ended its part of the turn. */
  finish(rt: ConversationRuntime, turn: Turn, result: TurnResult): Promise<void>;
}

/**
 * Hands a conversation's current turn to the engine: its model and tools, the early injections,
 * `status running` when a queued turn gets its machine, and `finish` when the engine is done.
 * `deferred`: the turn was admitted as queued behind the previous turn, which has now let go.
 */
export function launchTurn(deps: LaunchDeps, rt: ConversationRuntime, turn: Turn, deferred: boolean): void {
  const { engine, store } = deps;
  const { model, mcpServers, history } = turn.launch;
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
      attachments: turn.attachments,
      model,
      ...(mcpServers ? { mcpServers } : {}),
      ...(history ? { history } : {}),
      onEvent: (event) => fanOutEngineEvent(rt, turn, event),
      requestPermission: (req, signal) => relayPermission(rt, turn, req, signal),
      signal: turn.abort.signal,
    });
  } catch (err) {
    handle = refusedHandle((err as Error).message);
  }
  turn.handle = handle;
  for (const extra of turn.early.splice(0)) handle.inject(extra.content, extra.attachments);
  const markRunning = () => {
    turn.state = 'running';
    const at = deps.now();
    deps.persist(() => store.setTurnState(turn.conversationId, turn.turnId, 'running', at));
    rt.log.append('status', { phase: 'running', turnId: turn.turnId });
  };
  if (handle.queued) {
    void handle.running.then(() => {
      if (rt.current === turn && !isTerminal(turn.state)) markRunning();
    });
  } else if (deferred && turn.state === 'queued' && rt.current === turn) {
    markRunning();
  }
  void handle.done.then((result) => {
    turn.engineEnded = true;
    rt.engineBusy = false;
    freeEngine();
    return deps.finish(rt, turn, result);
  });
}

/**
 * Reads what a turn will be launched with, before it is admitted: a model chosen for this conversation wins
 * over the agent's saved one; a fork gives the agent the messages it carried over.
 */
export async function readLaunchSettings(
  deps: Pick<LaunchDeps, 'store' | 'agentSettings' | 'seedOf'>,
  s: { agentId: string; conversationId: string; requester: string },
): Promise<LaunchSettings> {
  const saved = await deps.agentSettings?.(s.agentId, s.requester === 'programado' ? 'programado' : 'chat');
  const model = (await deps.store.modelOf(s.conversationId)) ?? saved?.model;
  const history = await deps.seedOf?.(s.conversationId);
  return {
    ...(model ? { model } : {}),
    ...(saved?.mcpServers ? { mcpServers: saved.mcpServers } : {}),
    ...(history ? { history } : {}),
  };
}

/** The engine refused the turn outright: it ends as an error, like a failed spawn. */
function refusedHandle(error: string): TurnHandle {
  return {
    queued: false,
    queueLength: 0,
    running: Promise.resolve(),
    done: Promise.resolve<TurnResult>({ stopReason: 'error', error }),
    inject: () => false,
    acceptsInput: () => false,
  };
}
