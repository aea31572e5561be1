import type { AgentConfiguration } from '../../shared/api';
import { agentAbout } from '../../shared/api/agent-about';

/** The model's label when the agent lists it, else its id. */
export function modelLabel(
  config: Pick<AgentConfiguration, 'model' | 'models'> | undefined,
): string | undefined {
  if (!config?.model) return undefined;
  return config.models?.find((m) => m.id === config.model)?.label || config.model;
}

export interface EngineWords {
  name: string;
  description: string;
  /** Whether it has a workspace of its own (the API's `hasMachine`). */
  workspace: boolean;
}

/**
 * What an engine is. Our service says it (`about.engines`: the demo agent, goose, Gemini CLI, your
 * command…); a spec-only server does not, and then only what the spec tells is said.
 */
export function engineWords(config: Record<string, unknown> | undefined, engine: string): EngineWords {
  const told = agentAbout(config)?.engines.find((e) => e.id === engine);
  if (told) return { name: told.name, description: told.description, workspace: told.hasMachine };
  if (engine === 'house-lite') {
    return {
      name: 'Lite engine',
      description: 'No workspace of its own: no workspace files, MCP servers or restart.',
      workspace: false,
    };
  }
  const letter = /^engine-([a-z])$/.exec(engine)?.[1]?.toUpperCase();
  return {
    name: letter ? `Engine ${letter}` : engine,
    description:
      'Its own workspace, with skills, MCP servers and restart. This server does not say more about it.',
    workspace: true,
  };
}

/**
 * The engines a person may choose, in the spec's order: all five on a server that says nothing more; on
 * ours, those it offers (`about.engines[].offered`: a program place none fills is kept for tests only),
 * and always the agent's own.
 */
export function offeredEngines(
  config: Record<string, unknown> | undefined,
  engines: readonly string[],
  current: string,
): string[] {
  const about = agentAbout(config);
  if (!about) return [...engines];
  return engines.filter(
    (engine) => engine === current || about.engines.find((e) => e.id === engine)?.offered !== false,
  );
}

/** Whether an engine thinks with the person's own providers' models (our service's `onYourModels`). */
export const onYourModels = (config: Record<string, unknown> | undefined, engine: string): boolean =>
  agentAbout(config)?.engines.find((e) => e.id === engine)?.onYourModels === true;
