import { cp, mkdir, rm } from 'node:fs/promises';
import { apiRoutes, routePath, type AgentConfig, type PatchAgentBody } from '../../shared/api';
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
import {
  LENT_TOOLS,
  MACHINE_EXTENSIONS,
  TOOL_CHANNELS,
  effectiveCanales,
  effectiveGs,
  extensionStates,
  mergeVetoes,
  sameVetoes,
  unknownNames,
} from './service-tools';
import { SkillsStore } from './skills-store';
import { aboutTools } from './tools-about';
import { WorkspaceFiles } from './workspace-files';
import { resolveInside } from '../workspace/workspace-paths';

export type PatchOutcome =
  { status: 200; body: AgentConfig } | { status: 400 | 502; body: { error: string; detalle: string } };

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
  ): Promise<AgentConfig> {
    const settings = store.read(agent.id);
    const want = (field: string) => !opts.fields || opts.fields.has(field);
    const machine = hasMachine(agent.engine);
    const config: AgentConfig = { id: agent.id };
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
        canales: effectiveCanales(settings.vetoes),
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
    const filtered: AgentConfig = { id: agent.id };
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

  async function patch(agent: AgentRecord, body: PatchAgentBody): Promise<PatchOutcome> {
    const bad = (code: string, detalle: string): PatchOutcome => ({
      status: 400,
      body: { error: code, detalle },
    });
    const settings = store.read(agent.id);
    const next: AgentSettings = structuredClone(settings);
    const toEngine = body.engine ?? agent.engine;
    const toMachine = hasMachine(toEngine);
    const changed: string[] = [];
    let name = agent.name;

    if (body.promptMode !== undefined && !toMachine) {
      return bad('body_invalido', `promptMode applies only to engines with a machine; ${toEngine} has none.`);
    }
    const tools = body.tools ?? {};
    const unknownGs = unknownNames(
      tools.gs ?? {},
      LENT_TOOLS.map((t) => t.name),
    );
    if (unknownGs.length) return bad('body_invalido', `tools.gs: unknown tool "${unknownGs[0]}".`);
    const unknownExt = unknownNames(tools.extensions ?? {}, MACHINE_EXTENSIONS);
    if (unknownExt.length)
      return bad('body_invalido', `tools.extensions: unknown extension "${unknownExt[0]}".`);
    for (const [channel, toggles] of Object.entries(tools.canales ?? {})) {
      const unknown = unknownNames(
        toggles ?? {},
        LENT_TOOLS.map((t) => t.name),
      );
      if (unknown.length)
        return bad('body_invalido', `tools.canales.${channel}: unknown tool "${unknown[0]}".`);
    }

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
      const models = await modelsOf(agent.id, toEngine);
      if (!models.options.some((m) => m.id === body.model)) {
        const offered = models.options.map((m) => m.id).join(', ') || 'none';
        return bad('modelo_invalido', `"${body.model}" is not a model of ${toEngine} (models: ${offered}).`);
      }
      const current = engineSwitch ? null : (settings.model ?? models.current);
      if (body.model !== current) {
        next.model = body.model;
        changed.push('model');
      }
    }
    if (body.prompt !== undefined && body.prompt !== settings.prompt) {
      next.prompt = body.prompt;
      changed.push('prompt');
    }
    if (body.promptMode !== undefined && body.promptMode !== settings.promptMode) {
      next.promptMode = body.promptMode;
      changed.push('promptMode');
    }
    if (body.webSearch !== undefined && body.webSearch !== settings.webSearch) {
      next.webSearch = body.webSearch;
      changed.push('webSearch');
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
    if (tools.gs) {
      next.vetoes.gs = mergeVetoes(settings.vetoes.gs, tools.gs);
      if (!sameVetoes(next.vetoes.gs, settings.vetoes.gs)) changed.push('tools.gs');
    }
    if (tools.extensions) {
      next.vetoes.extensions = mergeVetoes(settings.vetoes.extensions, tools.extensions);
      if (!sameVetoes(next.vetoes.extensions, settings.vetoes.extensions)) changed.push('tools.extensions');
    }
    if (tools.canales) {
      let canalesChanged = false;
      for (const channel of TOOL_CHANNELS) {
        const toggles = tools.canales[channel];
        if (!toggles) continue;
        const before = settings.vetoes.canales[channel] ?? {};
        const after = mergeVetoes(before, toggles);
        if (Object.keys(after).length) next.vetoes.canales[channel] = after;
        else delete next.vetoes.canales[channel];
        if (!sameVetoes(before, after)) canalesChanged = true;
      }
      if (canalesChanged) changed.push('tools.canales');
    }

    if (changed.length === 0) {
      return bad('nada_que_cambiar', 'Nothing would change: every given field already has that value.');
    }

    store.save(agent.id, { name, engine: toEngine, protocolo: toMachine ? 'acp' : 'http' }, next);
    const updated: AgentRecord = { ...agent, name, engine: toEngine, protocolo: toMachine ? 'acp' : 'http' };

    if (engineSwitch) {
      if (hasMachine(agent.engine)) await deps.engine().stop(agent.id);
      await carryOver(agent.id, agent.engine, toEngine);
    }
    const machineTouched = ['engine', 'model', 'prompt', 'promptMode', 'tools.extensions'].some((f) =>
      changed.includes(f),
    );
    if (toMachine && machineTouched) await writeMachine(updated, next);

    // A model, an extension set or a new engine only reaches the agent through a fresh machine.
    const needsRestart =
      toMachine && ['engine', 'model', 'tools.extensions'].some((f) => changed.includes(f));
    let restarted = false;
    if (needsRestart) {
      const result = await deps.engine().restart(agent.id, toEngine);
      if (!result.reiniciado) {
        return {
          status: 502,
          body: {
            error: 'maquina_no_aplico',
            detalle: `The change was saved, but the ${toEngine} machine did not start with it. Retry POST ${routePath(apiRoutes.restartAgent, { id: agent.id })}.`,
          },
        };
      }
      restarted = true;
    }
    const config = await view(updated);
    return {
      status: 200,
      body: { ...config, aplicado: changed, nota: notaFor(toEngine, toMachine, changed, restarted) },
    };
  }

  return { view, patch, skillsOf, knowledgeBaseOf, modelsOf, layoutOf, writeMachine, hasMachine };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** What the change means on that engine, in one or two sentences. */
function notaFor(engine: string, machine: boolean, changed: string[], restarted: boolean): string {
  const parts: string[] = [];
  if (changed.includes('engine')) {
    parts.push(
      `Now on ${engine}: identity, skills, knowledge, channels and permissions came along; conversation memory stays with the previous engine.`,
    );
  }
  if (machine) {
    if (restarted) parts.push('The agent was restarted, so the change is already in effect.');
    if (changed.includes('prompt') || changed.includes('promptMode')) {
      parts.push(
        restarted
          ? 'The prompt was written to the machine and applies now.'
          : 'The prompt was written to the machine; it applies in the next conversation, or at once after a restart.',
      );
    }
  } else if (changed.includes('prompt')) {
    parts.push(
      `${engine} has no machine: the prompt applies from the next conversation; there is nothing to restart.`,
    );
  }
  const immediate = changed.filter((f) =>
    ['name', 'webSearch', 'channels', 'starters', 'tools.gs', 'tools.canales'].includes(f),
  );
  if (immediate.length) parts.push(`${immediate.join(', ')}: in effect from the next turn.`);
  return parts.join(' ') || 'Saved.';
}

export type AgentConfigService = ReturnType<typeof createAgentConfigService>;
