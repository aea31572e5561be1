import path from 'node:path';
import type { EngineAbout } from '../../shared/api';
import { knownProgram } from './agent-programs';
import {
  DEMO_ENGINE,
  ENGINE_NAMES,
  ENGINES_WITHOUT_MACHINE,
  MODEL_AGENT_ENGINE,
  PROGRAM_PLACES,
  type EngineCommand,
  type EnginesConfig,
} from './types';

/** Programs known by the name they are run by (configured by hand, or behind a runner such as npx). */
const PROGRAM_BY_COMMAND: Record<string, string> = {
  goose: 'goose',
  gemini: 'gemini',
  'claude-code-acp': 'claude-code',
  'claude-agent-acp': 'claude-code',
  codex: 'codex',
  'codex-acp': 'codex',
  opencode: 'opencode',
};

const RUNNERS = new Set(['node', 'npx', 'bunx', 'pnpm', 'uvx', 'env']);

/** The program a command runs: its first word, or the package a runner (`npx`, `node`) starts. */
function programOf(command: EngineCommand): string {
  const words = command.command.map((word) => path.basename(word).replace(/\.(c|m)?js$/, ''));
  const first = words[0] ?? '';
  const next = words.slice(1).find((word) => !word.startsWith('-'));
  return RUNNERS.has(first) && next ? next.replace(/^@[^/]+\//, '') : first;
}

const DEMO = {
  name: 'Demo agent (offline, answers by rule)',
  description:
    'AgentDesk’s built-in demo agent: it answers by rule, needs no account, key or network, and has its own workspace to try things in.',
};

const MODEL_AGENT = {
  name: 'AgentDesk agent, on your models',
  description:
    'AgentDesk’s own agent, thinking with the models of the providers you set up in Settings → Models: it works in its own workspace, with its skills, MCP servers and permissions.',
  onYourModels: true,
};

/** A place for an agent program that none fills: kept (it runs the demo agent) but not offered to a person. */
function emptyPlace(id: string): Omit<EngineAbout, 'id' | 'hasMachine'> {
  const which = id === 'engine-c' ? 'first' : 'second';
  return {
    name: `Empty agent program place (${which})`,
    description: `No agent program fills this ${which} place: goose, Gemini CLI, Claude Code, Codex or opencode run here once installed on this computer, or when chosen in Settings → Agent programs.`,
    offered: false,
  };
}

function aboutCommand(command: EngineCommand): Omit<EngineAbout, 'id' | 'hasMachine'> {
  const program = programOf(command);
  const known = knownProgram(command.program ?? PROGRAM_BY_COMMAND[program] ?? '');
  if (known) return { name: known.name, description: known.description };
  const name = command.name ?? `Your command (${program})`;
  return {
    name,
    description: `A command set up on this service (${program}), run on this computer with its own workspace.`,
  };
}

/**
 * Every engine of the API (our extension `about.engines` of GET agents/{id}), named by what it runs on this
 * service: the lite assistant, the demo agent (`engine-b`), the agent programs found or chosen (`engine-c`,
 * `engine-d`), the model agent on the person's providers (`engine-e`). A configured command wins everywhere.
 */
export function aboutEngines(engines: EnginesConfig | undefined): EngineAbout[] {
  return ENGINE_NAMES.map((id): EngineAbout => {
    if (ENGINES_WITHOUT_MACHINE.includes(id)) {
      return {
        id,
        hasMachine: false,
        name: 'Built-in lite assistant',
        description:
          'Runs inside the service with no workspace of its own: quick to start, but no workspace files, MCP servers or restart.',
      };
    }
    const configured = engines?.[id];
    if (configured?.command.length) return { id, hasMachine: true, ...aboutCommand(configured) };
    if (id === MODEL_AGENT_ENGINE) return { id, hasMachine: true, ...MODEL_AGENT };
    if ((PROGRAM_PLACES as readonly string[]).includes(id))
      return { id, hasMachine: true, ...emptyPlace(id) };
    return { id, hasMachine: true, ...(id === DEMO_ENGINE ? DEMO : emptyPlace(id)) };
  });
}
