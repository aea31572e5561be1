import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { RequestError, type AgentCapabilities, type McpServer } from '@agentclientprotocol/sdk/unstable';
import type { Attachment } from '../../shared/api';
import { AgentProtocolError, agentReason } from './agent-answers';
import { HANDOFF_META_KEY, modelChoices, type Handoff } from '../model-agent/handoff';
import type { AgentMachine } from './machine';
import type { OpenedSession, RequestMeta, SessionListener } from './machine-types';
import { askPermission } from './ask-permission';
import { buildPromptBlocks, historyBlock } from './prompt-blocks';
import type { SessionMap } from './session-map';
import type { EngineEvent, EngineMcpServer, ModelOption, RunTurnOptions, TurnResult } from './types';
import {
  emptyUsage,
  findLegacyModels,
  findModelSelector,
  UpdateMapper,
  type ModelSelector,
} from './update-mapper';
import type { TurnInbox } from './turn-inbox';
import { whenAborted } from './when-aborted';

export interface TurnDeps {
  sessionMap: SessionMap;
  workspaceDir: string;
  cancelGraceMs: number;
  log: (line: string) => void;
  rememberModels: (models: { options: ModelOption[]; current: string }) => void;
  /** Set for the model agent's turns: its handoff, asked afresh before every request. */
  handoff?: () => Promise<Handoff>;
}

function askedOnce<T>(ask: () => Promise<T>): () => Promise<T> {
  let asked: Promise<T> | undefined;
  return () => (asked ??= ask());
}

/** The model agent's handoff as a request's `_meta`, starting new sessions on the turn's model. */
async function handoffMeta(deps: TurnDeps, options: RunTurnOptions): Promise<RequestMeta | undefined> {
  if (!deps.handoff) return undefined;
  const handoff = await deps.handoff();
  return { [HANDOFF_META_KEY]: options.model ? { ...handoff, defaultModel: options.model } : handoff };
}

/** The API's McpServer list in ACP's shape, leaving out transports the agent does not take. */
export function toAcpMcpServers(
  servers: EngineMcpServer[] | undefined,
  caps: AgentCapabilities,
): McpServer[] {
  const pairs = (record: Record<string, string> | undefined) =>
    Object.entries(record ?? {}).map(([name, value]) => ({ name, value }));
  return (servers ?? []).flatMap((server): McpServer[] => {
    if ('url' in server) {
      const type = server.type ?? 'http';
      if (!caps.mcpCapabilities?.[type]) return [];
      return [{ type, name: server.name, url: server.url, headers: pairs(server.headers) }];
    }
    return [{ name: server.name, command: server.command, args: server.args ?? [], env: pairs(server.env) }];
  });
}

async function openSession(
  machine: AgentMachine,
  options: RunTurnOptions,
  deps: TurnDeps,
): Promise<OpenedSession> {
  const { agentId, engine, conversationId } = options;
  const mcpServers = toAcpMcpServers(options.mcpServers, machine.agentCaps);
  const known = await deps.sessionMap.sessionOf(agentId, engine, conversationId);
  if (known && machine.isOpen(known))
    return { sessionId: known, loaded: true, configOptions: undefined, raw: null };
  const meta = await handoffMeta(deps, options);
  if (known && machine.agentCaps.loadSession) {
    try {
      return await machine.loadSession(known, mcpServers, meta);
    } catch (error) {
      if (!machine.alive) throw error;
      deps.log(`[${agentId}] session/load ${known} failed, starting a new session: ${String(error)}`);
    }
  }
  const opened = await machine.newSession(mcpServers, meta);
  await deps.sessionMap.setSession(agentId, engine, conversationId, opened.sessionId);
  return opened;
}

/** Classifies a failed prompt: interrupted on purpose, crashed, or an agent error. */
async function failure(machine: AgentMachine, error: unknown): Promise<TurnResult> {
  if (error instanceof AgentProtocolError) {
    return { stopReason: 'error', errorCode: 'protocol_error', error: error.message };
  }
  if (error instanceof RequestError && machine.alive) {
    if (error.code === -32800) return { stopReason: 'cancelled' };
    return { stopReason: 'error', errorCode: 'agent_error', error: agentReason(error) };
  }
  // The pipe can close a moment before the process is reported gone.
  await Promise.race([machine.exited, sleep(1000)]);
  if (machine.stopCause) {
    const interruptedBy = machine.stopCause === 'idle' ? 'stop' : machine.stopCause;
    return { stopReason: 'cancelled', interruptedBy };
  }
  if (!machine.alive)
    return { stopReason: 'error', errorCode: 'agent_crashed', error: machine.describeExit() };
  const message = error instanceof Error ? error.message : String(error);
  return { stopReason: 'error', errorCode: 'agent_error', error: message };
}

/**
 * Runs one turn on an awake machine: opens (or resumes) the conversation's
 * session, applies the model, prompts, maps updates to events, relays
 * permission requests, follows up with injected messages, honours cancel.
 */
export async function runTurnOnMachine(
  machine: AgentMachine,
  options: RunTurnOptions,
  inbox: TurnInbox,
  deps: TurnDeps,
): Promise<TurnResult> {
  const emit = (event: EngineEvent) => {
    try {
      options.onEvent(event);
    } catch (error) {
      deps.log(`[${options.agentId}] onEvent threw: ${String(error)}`);
    }
  };
  const signal = options.signal ?? new AbortController().signal;
  emit({ type: 'caps', image: machine.agentCaps.promptCapabilities?.image === true });
  // One handoff serves the turn's start (the session, the model list, the first prompt): each ask reads the
  // person's providers, and the first text waits for them. A later prompt of the turn asks afresh.
  const starting = deps.handoff ? { ...deps, handoff: askedOnce(deps.handoff) } : deps;

  let session: OpenedSession;
  try {
    session = await openSession(machine, options, starting);
  } catch (error) {
    return failure(machine, error);
  }
  const { sessionId } = session;
  let state = machine.sessionState.get(sessionId);
  if (!state || session.configOptions !== undefined) {
    const selector = findModelSelector(session.configOptions) ?? findLegacyModels(session.raw);
    state = { usage: state?.usage ?? emptyUsage(), selector };
    machine.sessionState.set(sessionId, state);
  }
  const sessionState = state;
  const showModels = (selector: ModelSelector) => {
    const models = { options: selector.options, current: selector.current };
    deps.rememberModels(models);
    emit({ type: 'models', ...models });
  };

  try {
    if (starting.handoff && sessionState.selector) {
      // The person's providers may have changed since the session opened: the models are theirs now.
      const options = modelChoices((await starting.handoff()).providers).map(({ id, label }) => ({
        id,
        label,
      }));
      sessionState.selector = { ...sessionState.selector, options };
    }
    const selector = sessionState.selector;
    if (options.model && selector && options.model !== selector.current) {
      if (selector.options.some((o) => o.id === options.model)) {
        if (selector.configId) {
          const configOptions = await machine.setConfigOption(
            sessionId,
            selector.configId,
            options.model,
            await handoffMeta(starting, options),
          );
          sessionState.selector = findModelSelector(configOptions) ?? { ...selector, current: options.model };
        } else {
          await machine.setLegacyModel(sessionId, options.model);
          sessionState.selector = { ...selector, current: options.model };
        }
      } else {
        deps.log(`[${options.agentId}] model ${options.model} is not offered; keeping ${selector.current}`);
      }
    }
    if (sessionState.selector) showModels(sessionState.selector);
  } catch (error) {
    return failure(machine, error);
  }

  const mapper = new UpdateMapper(deps.workspaceDir, sessionState.usage);
  const promptContext: PromptContext = {
    machine,
    sessionId,
    mapper,
    options,
    deps: starting,
    signal,
    emit,
    onSelector: (selector) => {
      sessionState.selector = selector;
      showModels(selector);
    },
  };
  // A new session of a forked conversation: the agent is first told what was said before the fork.
  const history = !session.loaded && options.history?.length ? options.history : undefined;
  let message: PromptMessage | null = {
    content: options.content,
    attachments: options.attachments ?? [],
    ...(history ? { history } : {}),
  };
  while (message) {
    if (signal.aborted) {
      inbox.close();
      return { stopReason: 'cancelled' };
    }
    const result = await promptOnce(promptContext, message);
    promptContext.deps = deps;
    if (result.stopReason !== 'end_turn') {
      inbox.close();
      return result;
    }
    message = inbox.take();
  }
  inbox.closing = true; // same tick as the empty take(): no message can slip in between
  return { stopReason: 'end_turn' };
}

interface PromptMessage {
  content: string;
  attachments: Attachment[];
  history?: RunTurnOptions['history'];
}

interface PromptContext {
  machine: AgentMachine;
  sessionId: string;
  mapper: UpdateMapper;
  options: RunTurnOptions;
  deps: TurnDeps;
  signal: AbortSignal;
  emit: (event: EngineEvent) => void;
  onSelector: (selector: ModelSelector) => void;
}

async function promptOnce(ctx: PromptContext, message: PromptMessage): Promise<TurnResult> {
  const { machine, sessionId, mapper, options, deps, signal, emit } = ctx;
  const blocks = await buildPromptBlocks(
    message.content,
    message.attachments,
    machine.agentCaps.promptCapabilities,
    deps.workspaceDir,
    randomUUID(),
  );
  if (message.history) blocks.unshift(historyBlock(message.history));
  const meta = await handoffMeta(deps, options);
  // A cancel while the attachments were written found no listener yet: never prompt after it.
  if (signal.aborted) return { stopReason: 'cancelled' };
  const permissionsDone = new AbortController();
  const listener: SessionListener = {
    update: (update) => {
      if (update.sessionUpdate === 'config_option_update') {
        const selector = findModelSelector(update.configOptions);
        if (selector) ctx.onSelector(selector);
        return;
      }
      for (const event of mapper.map(update)) emit(event);
    },
    permission: (request, requestSignal) =>
      askPermission(request, AbortSignal.any([requestSignal, permissionsDone.signal]), mapper, options),
  };

  const onAbort = () => {
    permissionsDone.abort();
    void machine.cancel(sessionId);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const prompt = machine.prompt(sessionId, blocks, listener, meta);
    const graceOver = whenAborted(signal)
      .then(() => sleep(deps.cancelGraceMs))
      .then(() => 'grace' as const);
    const outcome = await Promise.race([prompt, graceOver]);
    if (outcome === 'grace') {
      machine.detach(sessionId, listener);
      prompt.catch(() => undefined);
      return { stopReason: 'cancelled' };
    }
    const usage = mapper.takeUsage(outcome.usage);
    if (usage) emit(usage);
    if (signal.aborted) return { stopReason: 'cancelled' };
    return { stopReason: outcome.stopReason };
  } catch (error) {
    const result = await failure(machine, error);
    return signal.aborted && result.errorCode !== 'agent_crashed' ? { stopReason: 'cancelled' } : result;
  } finally {
    permissionsDone.abort();
    signal.removeEventListener('abort', onAbort);
  }
}
