import type {
  SessionConfigOption,
  SessionUpdate,
  ToolCallContent,
  ToolCallLocation,
  Usage,
} from '@agentclientprotocol/sdk/unstable';
import type { EngineEvent, EngineTool, ModelOption, ToolStatus } from './types';
import { displayPath } from '../workspace/agent-folders';

/** A session's model selector, found among its ACP config options. */
export interface ModelSelector {
  /** The config option id to use with `session/set_config_option`. */
  configId: string;
  options: ModelOption[];
  current: string;
}

/** Picks the model selector: the `select` option with category `model` (or, failing that, id `model`). */
export function findModelSelector(
  configOptions: SessionConfigOption[] | null | undefined,
): ModelSelector | null {
  const selects = (configOptions ?? []).filter((o) => o.type === 'select');
  const option = selects.find((o) => o.category === 'model') ?? selects.find((o) => o.id === 'model');
  if (!option || option.type !== 'select' || typeof option.currentValue !== 'string') return null;
  const flat = option.options.flatMap((entry) => ('group' in entry ? entry.options : [entry]));
  return {
    configId: option.id,
    options: flat.map((o) => ({ id: o.value, label: o.name })),
    current: option.currentValue,
  };
}

/**
 * Older ACP agents describe models with a `models` field
 * ({currentModelId, availableModels[{modelId, name}]}) and `session/set_model`.
 * The SDK's current schema dropped it, but agents in the wild still send it.
 */
export function findLegacyModels(response: unknown): ModelSelector | null {
  const models = (response as { models?: unknown } | null)?.models as
    { currentModelId?: unknown; availableModels?: { modelId?: unknown; name?: unknown }[] } | undefined;
  if (!models || typeof models.currentModelId !== 'string' || !Array.isArray(models.availableModels))
    return null;
  const options = models.availableModels
    .filter((m) => typeof m.modelId === 'string')
    .map((m) => ({ id: String(m.modelId), label: typeof m.name === 'string' ? m.name : String(m.modelId) }));
  return { configId: '', options, current: models.currentModelId };
}

/** Usage numbers of one session: context (`usage_update`) and token totals (prompt response). */
export interface SessionUsage {
  used: number;
  size: number;
  /** Null until the agent reports a cost: with no known price there is none to show. */
  cost: number | null;
  currency?: string;
  input: number;
  output: number;
}

export function emptyUsage(): SessionUsage {
  return { used: 0, size: 0, cost: null, input: 0, output: 0 };
}

export function usageEvent(usage: SessionUsage): EngineEvent {
  const event: EngineEvent = {
    type: 'usage',
    used: usage.used,
    size: usage.size,
    ...(usage.cost !== null ? { cost: usage.cost } : {}),
    input: usage.input,
    output: usage.output,
  };
  if (usage.currency) event.currency = usage.currency;
  return event;
}

/** Folds a prompt response's token totals into the session usage. */
export function applyPromptUsage(usage: SessionUsage, tokens: Usage | null | undefined): boolean {
  if (!tokens) return false;
  usage.input = tokens.inputTokens;
  usage.output = tokens.outputTokens;
  return true;
}

function textOf(content: ToolCallContent[] | null | undefined): string | undefined {
  const texts = (content ?? []).flatMap((c) =>
    c.type === 'content' && c.content.type === 'text' ? [c.content.text] : [],
  );
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/**
 * Maps ACP session updates of one session onto the API's events. Keeps the
 * merged state of each tool call, since ACP updates carry only what changed
 * and the API's `tool` event shows the whole call.
 */
export class UpdateMapper {
  private readonly tools = new Map<string, EngineTool>();
  private usageChanged = false;

  constructor(
    private readonly workspaceDir: string,
    /** The session's usage, updated in place by `usage_update`. */
    readonly usage: SessionUsage,
  ) {}

  map(update: SessionUpdate): EngineEvent[] {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        return update.content.type === 'text' ? [{ type: 'chunk', text: update.content.text }] : [];
      case 'agent_thought_chunk':
        return update.content.type === 'text' ? [{ type: 'thought', text: update.content.text }] : [];
      case 'tool_call':
      case 'tool_call_update':
        return [{ type: 'tool', ...this.mergeTool(update) }];
      case 'config_option_update': {
        const selector = findModelSelector(update.configOptions);
        return selector ? [{ type: 'models', options: selector.options, current: selector.current }] : [];
      }
      case 'usage_update':
        this.usage.used = update.used;
        this.usage.size = update.size;
        if (update.cost) {
          this.usage.cost = update.cost.amount;
          this.usage.currency = update.cost.currency;
        }
        // One `usage` event per prompt, sent when it ends (see `takeUsage`), with the token totals too.
        this.usageChanged = true;
        return [];
      case 'session_info_update': {
        // The agent's name for the conversation; the turns layer keeps a title the person set.
        const title = update.title?.trim();
        return title ? [{ type: 'title', title }] : [];
      }
      default:
        return [];
    }
  }

  /** Folds the prompt response's token totals in; returns the `usage` event when anything changed. */
  takeUsage(tokens: Usage | null | undefined): EngineEvent | null {
    const changed = applyPromptUsage(this.usage, tokens) || this.usageChanged;
    this.usageChanged = false;
    return changed ? usageEvent(this.usage) : null;
  }

  /** Current merged state of a tool call (for permission requests that name one). */
  mergeTool(update: {
    toolCallId: string;
    title?: string | null;
    kind?: string | null;
    status?: string | null;
    locations?: ToolCallLocation[] | null;
    content?: ToolCallContent[] | null;
  }): EngineTool {
    const previous = this.tools.get(update.toolCallId);
    const tool: EngineTool = {
      id: update.toolCallId,
      title: update.title ?? previous?.title ?? update.toolCallId,
      kind: update.kind ?? previous?.kind ?? 'other',
      status: (update.status as ToolStatus | null | undefined) ?? previous?.status ?? 'pending',
    };
    const location = update.locations?.[0]?.path;
    const path = location !== undefined ? displayPath(this.workspaceDir, location) : previous?.path;
    if (path !== undefined) tool.path = path;
    const detalle =
      update.content !== undefined && update.content !== null ? textOf(update.content) : previous?.detalle;
    if (detalle !== undefined) tool.detalle = detalle;
    this.tools.set(tool.id, tool);
    return { ...tool };
  }
}
