import { cp, mkdir, rm } from 'node:fs/promises';
import type { AgentConfigPatch, AgentConfiguration } from '../../shared/api';
import { aboutEngines } from '../engine/engine-about';
import {
  ENGINES_WITHOUT_MACHINE,
  type EngineHost,
  type EnginesConfig,
  type ModelOption,
} from '../engine/types';
import type { AgentRecord } from '../identity/agents';
import { agentLayout, SKILLS_DIR, type AgentLayout } from '../workspace/agent-layout';
import type { AgentConfigStore, AgentSettings } from './config-store';
import { HOUSE_LITE_MODELS } from './house-lite';
import { readMachineConfig, writeMachineConfig } from './machine-config';
import { patchAgent, type PatchDeps, type PatchOutcome } from './agent-config-patch';
import { effectiveChannels, effectiveGs, extensionStates } from './service-tools';
import { SkillsStore } from './skills-store';
import { aboutTools } from './tools-about';
import { WorkspaceFiles } from './workspace-files';
import { resolveInside } from '../workspace/workspace-paths';

const NO_MODELS = { options: [] as ModelOption[], current: '' };

/**
 * The agent configuration: reading it (GET agents/{id}), changing it (PATCH) with every side effect on the
 * machine (config file, restart), and the per-agent stores (workspace, skills, knowledge).
 */
export function createAgentConfigService(deps: {
  dataDir: string;
  store: AgentConfigStore;
  engine: () => EngineHost;
  /** The configured engine commands, for the person's words about each engine. */
  engines?: EnginesConfig;
  log: (line: string) => void;
}) {
  const { store } = deps;
  const layoutOf = (agentId: string): AgentLayout => agentLayout(deps.dataDir, agentId);
  // Known without the engine host: which engines have a machine is part of the engine contract.
  const hasMachine = (engine: string) => !ENGINES_WITHOUT_MACHINE.includes(engine);

  /** Skills live in the workspace for machine engines, in the service-held bundle otherwise. */
  function skillsOf(agentId: string, engine: string): SkillsStore {
    const layout = layoutOf(agentId);
    return hasMachine(engine)
      ? new SkillsStore(layout.work, SKILLS_DIR.split('/'))
      : new SkillsStore(layout.bundle, ['skills']);
  }

  /** The folder holding `knowledge/` for this engine kind. */
  function knowledgeBaseOf(agentId: string, engine: string): WorkspaceFiles {
    const layout = layoutOf(agentId);
    return new WorkspaceFiles(hasMachine(engine) ? layout.work : layout.bundle);
  }

  async function modelsOf(
    agentId: string,
    engine: string,
  ): Promise<{ options: ModelOption[]; current: string }> {
    if (!hasMachine(engine)) return { options: HOUSE_LITE_MODELS, current: HOUSE_LITE_MODELS[0]!.id };
    try {
      return await deps.engine().models(agentId, engine);
    } catch (err) {
      deps.log(`[${agentId}] models of ${engine} unavailable: ${(err as Error).message}`);
      return NO_MODELS;
    }
  }

  async function writeMachine(agent: { id: string; engine: string }, settings: AgentSettings): Promise<void> {
    if (hasMachine(agent.engine))
      await writeMachineConfig(layoutOf(agent.id).machineConfig, agent.engine, settings);
  }

  async function view(
    agent: AgentRecord,
    opts: { full?: boolean; fields?: ReadonlySet<string> } = {},
  ): Promise<AgentConfiguration> {
    const settings = await store.read(agent.id);
    const want = (field: string) => !opts.fields || opts.fields.has(field);
    const machine = hasMachine(agent.engine);
    const config: AgentConfiguration = { id: agent.id };
    if (opts.full && machine) {
      // `full=1` wakes the machine: a sleeping one is started (restart of nothing is a start).
      if (!deps.engine().isAwake(agent.id)) await deps.engine().restart(agent.id, agent.engine);
    }
    const models = want('models') || want('model') ? await modelsOf(agent.id, agent.engine) : NO_MODELS;
    Object.assign(config, {
      name: agent.name,
      storage: machine ? 'box' : 'bundle',
      hasMachine: machine,
      engine: agent.engine,
      model: settings.model ?? models.current,
      models: models.options,
      prompt: settings.prompt,
      ...(machine ? { promptMode: settings.promptMode } : {}),
      channels: { ...settings.channels },
      webSearch: settings.webSearch,
      mcp: settings.mcp,
      starters: settings.starters,
      msgapp2Page: settings.msgapp2Page,
      tools: {
        gs: effectiveGs(settings.vetoes),
        extensions: { ...settings.vetoes.extensions },
        channels: effectiveChannels(settings.vetoes),
      },
    });
    if (opts.full) {
      config.skills = await skillsOf(agent.id, agent.engine).list();
      if (machine) {
        const layout = layoutOf(agent.id);
        config.files = (await new WorkspaceFiles(layout.work).list({ segments: [], rel: '' })).files;
        const file = await readMachineConfig(layout.machineConfig);
        config.extensions = file?.extensions ?? extensionStates(settings.vetoes);
      } else {
        config.files = [];
        config.extensions = [];
      }
    }
    // Our extension (docs/extensions.md): what each engine and tool is, in a person's words.
    if (!opts.fields)
      return { ...config, about: { engines: aboutEngines(deps.engines), tools: aboutTools() } };
    const filtered: AgentConfiguration = { id: agent.id };
    for (const [key, value] of Object.entries(config))
      if (opts.fields.has(key)) (filtered as Record<string, unknown>)[key] = value;
    return filtered;
  }

  /** On an engine switch, skills and knowledge follow the agent between the workspace and the bundle. */
  async function carryOver(agentId: string, from: string, to: string): Promise<void> {
    const fromMachine = hasMachine(from);
    const toMachine = hasMachine(to);
    if (fromMachine === toMachine) return;
    const fromSkills = skillsOf(agentId, from);
    const toSkills = skillsOf(agentId, to);
    for (const slug of (await toSkills.list()).map((s) => s.slug)) await toSkills.remove(slug);
    await fromSkills.copyTo(toSkills);
    const layout = layoutOf(agentId);
    const source = fromMachine ? layout.work : layout.bundle;
    const target = toMachine ? layout.work : layout.bundle;
    await mkdir(target, { recursive: true });
    const src = await resolveInside(source, { segments: ['knowledge'], rel: 'knowledge' });
    const dst = await resolveInside(target, { segments: ['knowledge'], rel: 'knowledge' });
    if (dst.stat) await rm(dst.absolute, { recursive: true, force: true });
    // `cp` keeps links as links (verbatimSymlinks), so nothing outside the agent's folder is copied in.
    if (src.stat?.isDirectory())
      await cp(src.absolute, dst.absolute, { recursive: true, verbatimSymlinks: true });
  }

  const patchDeps: PatchDeps = {
    store,
    hasMachine,
    takesModelPerTurn: (engine) => deps.engine().takesModelPerTurn(engine),
    modelsOf,
    stop: (agentId) => deps.engine().stop(agentId),
    restart: async (agentId, engine) => (await deps.engine().restart(agentId, engine)).restarted,
    carryOver,
    writeMachine,
    view: (agent) => view(agent),
  };
  /** PATCH agents/{id} (./agent-config-patch.ts). */
  const patch = (agent: AgentRecord, change: AgentConfigPatch): Promise<PatchOutcome> =>
    patchAgent(patchDeps, agent, change);

  return { view, patch, skillsOf, knowledgeBaseOf, modelsOf, layoutOf, writeMachine, hasMachine };
}

export type AgentConfigService = ReturnType<typeof createAgentConfigService>;
