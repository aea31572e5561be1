import { findExecutable } from '../transcription/executables';
import type { EngineCommand } from './types';

/** The ACP agent programs the service knows, in the order found ones fill the places. */
export interface KnownProgram {
  id: string;
  name: string;
  /** The command to run, by the name it has on the PATH; alternatives in order of preference. */
  runs: string[][];
  description: string;
  /** The one line that installs it. */
  install: string;
  /** What it needs besides installing, in words. */
  needs: string;
}

export const KNOWN_PROGRAMS: readonly KnownProgram[] = [
  {
    id: 'goose',
    name: 'goose',
    runs: [['goose', 'acp']],
    description: 'The goose agent, run on this computer with its own workspace.',
    install: 'curl -fsSL https://github.com/block/goose/releases/download/stable/download_cli.sh | bash',
    needs: 'A model provider set up with `goose configure`.',
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    runs: [['gemini', '--acp']],
    description: 'Google’s Gemini CLI, run on this computer with its own workspace.',
    install: 'npm install -g @google/gemini-cli',
    needs: 'A sign-in with `gemini`, or a GEMINI_API_KEY.',
  },
  {
    id: 'claude-code',
    name: 'Claude Code',
    runs: [['claude-agent-acp'], ['claude-code-acp']],
    description: 'Claude Code through its ACP adapter, run on this computer with its own workspace.',
    install: 'npm install -g @agentclientprotocol/claude-agent-acp',
    needs: 'A sign-in with `claude`, or an ANTHROPIC_API_KEY.',
  },
  {
    id: 'codex',
    name: 'Codex',
    runs: [['codex-acp']],
    description: 'OpenAI’s Codex through its ACP adapter, run on this computer with its own workspace.',
    install: 'npm install -g @zed-industries/codex-acp',
    needs: 'A sign-in with `codex`, or an OPENAI_API_KEY.',
  },
  {
    id: 'opencode',
    name: 'opencode',
    runs: [['opencode', 'acp']],
    description: 'The opencode agent, run on this computer with its own workspace.',
    install: 'npm install -g opencode-ai',
    needs: 'A model provider set up with `opencode auth login`.',
  },
];

export const knownProgram = (id: string): KnownProgram | undefined =>
  KNOWN_PROGRAMS.find((program) => program.id === id);

/** The known programs found on the PATH, each with the command that runs it (its absolute path). */
export function discoverPrograms(env: NodeJS.ProcessEnv = process.env): Map<string, EngineCommand> {
  const found = new Map<string, EngineCommand>();
  for (const program of KNOWN_PROGRAMS) {
    for (const [name, ...args] of program.runs) {
      const file = findExecutable(name!, env.PATH ?? '');
      if (file) {
        found.set(program.id, { command: [file, ...args], program: program.id });
        break;
      }
    }
  }
  return found;
}
