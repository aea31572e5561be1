import type { CoreContext } from '../core-context';
import { createEngineHost } from './engine-host';
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
      const raw = entry as { command?: unknown; env?: unknown } | string[] | string;
      const command = commandOf(typeof raw === 'object' && !Array.isArray(raw) ? raw.command : raw);
      if (!command) continue;
      const env = typeof raw === 'object' && !Array.isArray(raw) ? raw.env : undefined;
      const item: EngineCommand = { command };
      if (env && typeof env === 'object') item.env = env as Record<string, string>;
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

/** Starts the engine host, first of the areas (../context.ts), so turns and agent config are given it. */
export function startEngines(ctx: CoreContext): EngineHost {
  const host = createEngineHost({ dataDir: ctx.dataDir, log: ctx.log, ...engineOptionsFrom(ctx.config) });
  ctx.onClose(() => host.close());
  return host;
}
