import type { CoreContext } from '../core-context';
import type { Handoff } from '../model-agent/handoff';
import { createEngineHost } from './engine-host';
import { createEnginePlaces, type EnginePlaces } from './engine-places';
import type { EngineCommand, EngineHost, EngineHostOptions, EnginesConfig } from './types';

/** A positive number from config (flags arrive as strings). */
function positive(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** A command given as an array, a JSON array string, or a plain string split on spaces. */
function commandOf(value: unknown): string[] | undefined {
  if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return value as string[];
  if (typeof value !== 'string' || !value.trim()) return undefined;
  if (value.trim().startsWith('[')) {
    try {
      return commandOf(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  return value.trim().split(/\s+/);
}

/**
 * The engine settings of the service config:
 * - `engines`: `{ "<engine>": { "command": [...], "env": {...} } }` (config.json);
 * - `engineCommand` (`--engine-command "goose acp"`): the command of the default engine, `engine-b`;
 * - `maxMachines` (`--max-machines`, default 4) and `machineIdleMs` (`--machine-idle-ms`, default 10 min).
 */
export function engineOptionsFrom(
  config: Record<string, unknown>,
): Omit<EngineHostOptions, 'dataDir' | 'log'> {
  const engines: EnginesConfig = {};
  const configured = config.engines;
  if (configured && typeof configured === 'object' && !Array.isArray(configured)) {
    for (const [name, entry] of Object.entries(configured as Record<string, unknown>)) {
      const raw = entry as
        { command?: unknown; env?: unknown; program?: unknown; name?: unknown } | string[] | string;
      const object = typeof raw === 'object' && !Array.isArray(raw) ? raw : undefined;
      const command = commandOf(object ? object.command : raw);
      if (!command) continue;
      const item: EngineCommand = { command };
      if (object?.env && typeof object.env === 'object') item.env = object.env as Record<string, string>;
      // Written by Settings → Agent programs (engine-places.ts): which known program, or the owner's name for it.
      if (typeof object?.program === 'string') item.program = object.program;
      if (typeof object?.name === 'string') item.name = object.name;
      engines[name] = item;
    }
  }
  const flag = commandOf(config.engineCommand);
  if (flag) engines['engine-b'] = { command: flag };
  return {
    engines,
    maxMachines: positive(config.maxMachines),
    idleMs: positive(config.machineIdleMs),
  };
}

/**
 * Starts the engine host, first of the areas (../context.ts), so turns and agent config are given it, with the
 * engines' places (agent programs found on the PATH) and the model agent's handoff for an agent's person.
 */
export function startEngines(
  ctx: CoreContext,
  handoff: (agentId: string) => Promise<Handoff>,
): { host: EngineHost; places: EnginePlaces } {
  const options = engineOptionsFrom(ctx.config);
  const places = createEnginePlaces({ dataDir: ctx.dataDir, configured: options.engines ?? {} });
  const host = createEngineHost({
    dataDir: ctx.dataDir,
    log: ctx.log,
    ...options,
    engines: places.engines,
    handoff,
  });
  ctx.onClose(() => host.close());
  return { host, places };
}
