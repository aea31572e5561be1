import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { modelAgentCommand } from './model-agent-command';
import type { EngineCommand, EnginesConfig } from './types';
import { ENGINES_WITHOUT_MACHINE, MODEL_AGENT_ENGINE } from './types';

/**
 * The variables the providers' own SDKs read their keys from. Our own agents (the demo agent, the model
 * agent) start without them: the model agent is handed keys over stdio only, and neither agent's tools
 * or MCP servers may inherit them. Agent programs of the person's (goose, Claude Code) keep them.
 */
export const PROVIDER_KEY_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'OPENROUTER_API_KEY',
];

/**
 * How to start the built-in demo agent.
 *
 * - Electron / packaged builds: the demo agent is prebuilt to JavaScript and
 *   its path is given (option or `AGENTDESK_DEMO_AGENT_JS`). Electron's binary
 *   runs it as plain Node when `ELECTRON_RUN_AS_NODE=1`.
 * - The built Node programs (out/node/, the installed `agentdesk`): the demo agent is built next to
 *   them as demo-agent.js.
 * - Dev and tests: the service itself runs under tsx, so the agent runs the
 *   TypeScript source with this same Node and the tsx loader. The loader is
 *   passed as an absolute URL because the agent's cwd is its workspace, where
 *   a bare `tsx` would not resolve.
 */
export function demoAgentCommand(
  prebuiltJs: string | undefined = process.env.AGENTDESK_DEMO_AGENT_JS ?? builtNeighbour(),
): EngineCommand {
  if (prebuiltJs) {
    return {
      command: [process.execPath, prebuiltJs],
      ...(process.versions.electron ? { env: { ELECTRON_RUN_AS_NODE: '1' } } : {}),
    };
  }
  const source = fileURLToPath(new URL('../demo-agent/main.ts', import.meta.url));
  if (!existsSync(source)) {
    throw new Error('The demo agent source is missing; set AGENTDESK_DEMO_AGENT_JS to its prebuilt main.js.');
  }
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { command: [process.execPath, '--import', tsxLoader, source] };
}

/** demo-agent.js beside this file when it runs as part of a built program, else undefined. */
function builtNeighbour(): string | undefined {
  const built = fileURLToPath(new URL('./demo-agent.js', import.meta.url));
  return existsSync(built) ? built : undefined;
}

/**
 * The command for a machine engine: configured (or a program found for its place), else the model agent
 * for `engine-e` and the demo agent for the others. Null for engines without a machine.
 */
export function engineCommand(engine: string, engines: EnginesConfig | undefined): EngineCommand | null {
  if (ENGINES_WITHOUT_MACHINE.includes(engine)) return null;
  const configured = engines?.[engine];
  if (configured && configured.command.length > 0) return configured;
  const own = engine === MODEL_AGENT_ENGINE ? modelAgentCommand() : demoAgentCommand();
  return { ...own, unsetEnv: PROVIDER_KEY_VARIABLES };
}
