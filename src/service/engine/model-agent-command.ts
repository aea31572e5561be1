import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EngineCommand } from './types';

/**
 * How to start the built-in model agent (engine `engine-e`), the same three ways as the demo agent
 * (agent-command.ts): a prebuilt model-agent.js given by `AGENTDESK_MODEL_AGENT_JS` (Electron runs it
 * as Node with ELECTRON_RUN_AS_NODE), the one built beside the Node programs in out/node/, or in dev
 * and tests the TypeScript source under this Node with the tsx loader (an absolute URL, because the
 * agent's cwd is its workspace). No key is ever put in this command or its environment: providers
 * reach the agent over stdio only (model-agent/handoff.ts).
 */
export function modelAgentCommand(
  prebuiltJs: string | undefined = process.env.AGENTDESK_MODEL_AGENT_JS ?? builtNeighbour(),
): EngineCommand {
  if (prebuiltJs) {
    return {
      command: [process.execPath, prebuiltJs],
      ...(process.versions.electron ? { env: { ELECTRON_RUN_AS_NODE: '1' } } : {}),
    };
  }
  const source = fileURLToPath(new URL('../model-agent/main.ts', import.meta.url));
  if (!existsSync(source)) {
    throw new Error(
      'The model agent source is missing; set AGENTDESK_MODEL_AGENT_JS to its prebuilt main.js.',
    );
  }
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { command: [process.execPath, '--import', tsxLoader, source] };
}

/** model-agent.js beside this file when it runs as part of a built program, else undefined. */
function builtNeighbour(): string | undefined {
  const built = fileURLToPath(new URL('./model-agent.js', import.meta.url));
  return existsSync(built) ? built : undefined;
}
