import type { AgentConfigPatch, AgentConfiguration } from '../../shared/api';
import type { ModelOption } from '../engine/types';
import type { AgentRecord } from '../identity/agents';
import { refuse, success, type Outcome } from '../outcome';
import type { AgentConfigStore, AgentSettings } from './config-store';
import {
  LENT_TOOLS,
  MACHINE_EXTENSIONS,
  TOOL_CHANNELS,
  mergeVetoes,
  sameVetoes,
  unknownNames,
} from './service-tools';

/** Why a change of the agent's configuration was refused (the route maps each to its status and code). */
export type PatchRefusal = 'invalid' | 'unknown_model' | 'nothing_to_change' | 'machine_not_applied';

/**
 * A change applied: the agent's configuration now, the fields that changed, and what that means. Fields are
 * named in our words (`tools.channels`); the route writes them as the caller sent them.
 */
export interface PatchApplied {
  config: AgentConfiguration;
  applied: string[];
  note: string;
}

export type PatchOutcome = Outcome<PatchApplied, PatchRefusal>;

/** What a change needs of the agent-configuration service. */
export interface PatchDeps {
  store: AgentConfigStore;
  hasMachine(engine: string): boolean;
  /** Whether the engine takes its model with each turn, so a new model needs no restart. */
  takesModelPerTurn(engine: string): boolean;
  modelsOf(agentId: string, engine: string): Promise<{ options: ModelOption[]; current: string }>;
  /** Stops the agent's machine (before an engine switch). */
  stop(agentId: string): Promise<void>;
  /** Restarts it; false when the machine did not start with the change. */
  restart(agentId: string, engine: string): Promise<boolean>;
  carryOver(agentId: string, from: string, to: string): Promise<void>;
  writeMachine(agent: { id: string; engine: string }, settings: AgentSettings): Promise<void>;
  view(agent: AgentRecord): Promise<AgentConfiguration>;
}

/** The fields whose change only reaches the agent through a fresh machine. */
const RESTARTING = ['engine', 'model', 'tools.extensions'];
/** The fields written into the machine's configuration file. */
const MACHINE_FILE = ['engine', 'model', 'prompt', 'promptMode', 'tools.extensions'];

/**
 * PATCH agents/{id}: checks the change, works out what differs, saves it, and carries it to the machine
 * (skills and knowledge on an engine switch, the config file, a restart where needed).
 */
export async function patchAgent(
  deps: PatchDeps,
  agent: AgentRecord,
  body: AgentConfigPatch,
): Promise<PatchOutcome> {
  const toEngine = body.engine ?? agent.engine;
  const toMachine = deps.hasMachine(toEngine);
  const unknown = unknownToolName(body, toEngine, toMachine);
  if (unknown) return refuse('invalid', unknown);
  const planned = await planChange(deps, agent, body, toEngine);
  if (!planned.ok) return planned;
  const { name, next, changed } = planned.value;
  if (changed.length === 0)
    return refuse('nothing_to_change', 'Nothing would change: every given field already has that value.');

  const protocol = toMachine ? 'acp' : 'http';
  await deps.store.save(agent.id, { name, engine: toEngine, protocol }, next);
  const updated: AgentRecord = { ...agent, name, engine: toEngine, protocol };
  if (toEngine !== agent.engine) {
    if (deps.hasMachine(agent.engine)) await deps.stop(agent.id);
    await deps.carryOver(agent.id, agent.engine, toEngine);
  }
  if (toMachine && MACHINE_FILE.some((f) => changed.includes(f))) await deps.writeMachine(updated, next);

  let restarted = false;
  const restarting = deps.takesModelPerTurn(toEngine) ? RESTARTING.filter((f) => f !== 'model') : RESTARTING;
  if (toMachine && restarting.some((f) => changed.includes(f))) {
    if (!(await deps.restart(agent.id, toEngine)))
      return refuse(
        'machine_not_applied',
        `The change was saved, but the ${toEngine} machine did not start with it.`,
      );
    restarted = true;
  }
  const config = await deps.view(updated);
  return success({ config, applied: changed, note: noteFor(toMachine, changed, restarted) });
}

/** A sentence naming the first field the body may not set or a tool name it does not know, or null. */
function unknownToolName(body: AgentConfigPatch, toEngine: string, toMachine: boolean): string | null {
  if (body.promptMode !== undefined && !toMachine)
    return `promptMode applies only to engines with a machine; ${toEngine} has none.`;
  const tools = body.tools ?? {};
  const lent = LENT_TOOLS.map((t) => t.name);
  const unknownGs = unknownNames(tools.gs ?? {}, lent);
  if (unknownGs.length) return `tools.gs: unknown tool "${unknownGs[0]}".`;
  const unknownExt = unknownNames(tools.extensions ?? {}, MACHINE_EXTENSIONS);
  if (unknownExt.length) return `tools.extensions: unknown extension "${unknownExt[0]}".`;
  for (const [channel, toggles] of Object.entries(tools.channels ?? {})) {
    const unknown = unknownNames(toggles ?? {}, lent);
    if (unknown.length) return `tools.channels.${channel}: unknown tool "${unknown[0]}".`;
  }
  return null;
}

/** The settings after the change and the names of the fields that differ from the saved ones. */
async function planChange(
  deps: PatchDeps,
  agent: AgentRecord,
  body: AgentConfigPatch,
  toEngine: string,
): Promise<Outcome<{ name: string; next: AgentSettings; changed: string[] }, 'unknown_model'>> {
  const settings = await deps.store.read(agent.id);
  const next: AgentSettings = structuredClone(settings);
  const changed: string[] = [];
  let name = agent.name;
  if (body.name !== undefined && body.name !== agent.name) {
    name = body.name;
    changed.push('name');
  }
  const engineSwitch = toEngine !== agent.engine;
  if (engineSwitch) {
    changed.push('engine');
    next.model = null; // the new engine's default, unless a model of it is given
  }
  if (body.model !== undefined) {
    const models = await deps.modelsOf(agent.id, toEngine);
    if (!models.options.some((m) => m.id === body.model)) {
      const offered = models.options.map((m) => m.id).join(', ') || 'none';
      return refuse('unknown_model', `"${body.model}" is not a model of ${toEngine} (models: ${offered}).`);
    }
    const current = engineSwitch ? null : (settings.model ?? models.current);
    if (body.model !== current) {
      next.model = body.model;
      changed.push('model');
    }
  }
  const simple = ['prompt', 'promptMode', 'webSearch'] as const;
  for (const field of simple) {
    const value = body[field];
    if (value !== undefined && value !== settings[field]) {
      (next as Record<(typeof simple)[number], unknown>)[field] = value;
      changed.push(field);
    }
  }
  if (body.channels) {
    const merged = { ...settings.channels, ...stripUndefined(body.channels) };
    if (JSON.stringify(merged) !== JSON.stringify(settings.channels)) {
      next.channels = merged;
      changed.push('channels');
    }
  }
  if (body.starters !== undefined && JSON.stringify(body.starters) !== JSON.stringify(settings.starters)) {
    next.starters = body.starters;
    changed.push('starters');
  }
  changed.push(...changeToolVetoes(settings, next, body.tools ?? {}));
  return success({ name, next, changed });
}

/** Merges the body's tool toggles into `next`; the tool fields that differ from `settings`. */
function changeToolVetoes(
  settings: AgentSettings,
  next: AgentSettings,
  tools: NonNullable<AgentConfigPatch['tools']>,
): string[] {
  const changed: string[] = [];
  if (tools.gs) {
    next.vetoes.gs = mergeVetoes(settings.vetoes.gs, tools.gs);
    if (!sameVetoes(next.vetoes.gs, settings.vetoes.gs)) changed.push('tools.gs');
  }
  if (tools.extensions) {
    next.vetoes.extensions = mergeVetoes(settings.vetoes.extensions, tools.extensions);
    if (!sameVetoes(next.vetoes.extensions, settings.vetoes.extensions)) changed.push('tools.extensions');
  }
  if (tools.channels) {
    let channelsChanged = false;
    for (const channel of TOOL_CHANNELS) {
      const toggles = tools.channels[channel];
      if (!toggles) continue;
      const before = settings.vetoes.channels[channel] ?? {};
      const after = mergeVetoes(before, toggles);
      if (Object.keys(after).length) next.vetoes.channels[channel] = after;
      else delete next.vetoes.channels[channel];
      if (!sameVetoes(before, after)) channelsChanged = true;
    }
    if (channelsChanged) changed.push('tools.channels');
  }
  return changed;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * What the change means on that engine, in one or two sentences a person reads as they are (the app shows
 * the note): no engine id or field name, which are wire words.
 */
function noteFor(machine: boolean, changed: string[], restarted: boolean): string {
  const parts: string[] = [];
  if (changed.includes('engine')) {
    parts.push(
      'The agent now runs on the engine you chose: its identity, skills, knowledge, channels and permissions came along; what it remembers of earlier conversations stays with the previous engine.',
    );
  }
  const prompt = changed.includes('prompt') || changed.includes('promptMode');
  if (machine) {
    if (restarted) parts.push('The agent was restarted, so the change is already in effect.');
    else if (changed.includes('model')) parts.push('The new model answers from the next reply.');
    if (prompt) {
      parts.push(
        restarted
          ? 'The new prompt applies now.'
          : 'The new prompt applies from the next conversation, or at once after a restart.',
      );
    }
  } else if (prompt) {
    parts.push('The new prompt applies from the next conversation; there is nothing to restart.');
  }
  const immediate = changed.filter((f) =>
    ['name', 'webSearch', 'channels', 'starters', 'tools.gs', 'tools.channels'].includes(f),
  );
  if (immediate.length) {
    parts.push(
      parts.length
        ? 'The other changes apply from the next reply.'
        : 'The change applies from the next reply.',
    );
  }
  return parts.join(' ') || 'Saved.';
}
