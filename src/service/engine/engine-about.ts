import path from 'node:path';
import type { EngineAbout } from '../../shared/api';
import { ENGINE_NAMES, ENGINES_WITHOUT_MACHINE, type EngineCommand, type EnginesConfig } from './types';

/** ACP agents people configure, known by the program they run. */
const KNOWN_PROGRAMS: Record<string, { name: string; description: string }> = {
  goose: { name: 'goose', description: 'The goose agent, run on this computer with its own workspace.' },
  gemini: {
    name: 'Gemini CLI',
    description: 'Google’s Gemini CLI, run on this computer with its own workspace.',
  },
  'claude-code-acp': {
    name: 'Claude Code',
    description: 'Claude Code through its ACP adapter, run on this computer with its own workspace.',
  },
  codex: { name: 'Codex', description: 'OpenAI’s Codex CLI, run on this computer with its own workspace.' },
};

const RUNNERS = new Set(['node', 'npx', 'bunx', 'pnpm', 'uvx', 'env']);

/** The program a command runs: its first word, or the package a runner (`npx`, `node`) starts. */
function programOf(command: EngineCommand): string {
  const words = command.command.map((word) => path.basename(word).replace(/\.(c|m)?js$/, ''));
  const first = words[0] ?? '';
  const next = words.slice(1).find((word) => !word.startsWith('-'));
  return RUNNERS.has(first) && next ? next.replace(/^@[^/]+\//, '') : first;
}

/** The engine a service runs the demo agent on by default; the others without a program are spares. */
const DEMO_ENGINE = 'engine-b';
/** Spares run the demo agent too, so they are told apart by which copy they are, not by a letter. */
const SPARE_COPIES: Record<string, string> = {
  'engine-c': 'second',
  'engine-d': 'third',
  'engine-e': 'fourth',
};

function aboutMachineEngine(
  id: string,
  command: EngineCommand | undefined,
): Omit<EngineAbout, 'id' | 'hasMachine'> {
  if (!command && id === DEMO_ENGINE) {
    return {
      name: 'The demo agent',
      description:
        'AgentDesk’s built-in demo agent: it answers by rule, needs no account or key, and has its own workspace to try things in.',
    };
  }
  if (!command) {
    const copy = SPARE_COPIES[id] ?? 'another';
    return {
      name: `The demo agent, ${copy} copy`,
      description: `The same built-in demo agent in a ${copy} workspace of its own, to try things apart. Another program can be set up for it in this service’s configuration.`,
    };
  }
  const program = programOf(command);
  const known = KNOWN_PROGRAMS[program];
  if (known) return known;
  return {
    name: `Your command (${program})`,
    description: `The command set in this service’s configuration (${program}), run on this computer with its own workspace.`,
  };
}

/** Every engine of the API (our extension `about.engines` of GET agents/{id}), described by what it runs on this service. */
export function aboutEngines(engines: EnginesConfig | undefined): EngineAbout[] {
  return ENGINE_NAMES.map((id) => {
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
    return {
      id,
      hasMachine: true,
      ...aboutMachineEngine(id, configured?.command.length ? configured : undefined),
    };
  });
}
