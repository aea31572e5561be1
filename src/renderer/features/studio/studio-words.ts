import { agentAbout, type AgentConfig } from '../../../shared/api';
import type { StudioSection } from '../../stores/studio-store';

/** Section names, in the order the studio lists them. */
export const sectionTitles: Record<StudioSection, string> = {
  identity: 'Identity',
  engine: 'Engine and model',
  channels: 'Channels and web search',
  tools: 'Tools',
  mcp: 'MCP servers',
  skills: 'Skills',
  files: 'Workspace files',
  restart: 'Restart',
  bundle: 'Bundle',
  numbers: 'Business chat numbers',
};

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
export function engineWords(config: AgentConfig | undefined, engine: string): EngineWords {
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

/** Channels: where people reach the agent (the spec's names stay on the wire). */
export const channelWords: Record<string, { label: string; description: string }> = {
  chat: { label: 'Chat', description: 'Conversations in this app and other chat clients.' },
  workchat: { label: 'Work chat', description: 'Your team’s workspace chat.' },
  web: { label: 'Web', description: 'A chat box on a web page.' },
  msgapp1: { label: 'Business chat', description: 'Customers who write to your business phone numbers.' },
  msgapp2: { label: 'Page chat', description: 'People who message your connected page.' },
  programado: { label: 'Scheduled', description: 'Messages you scheduled to be sent later.' },
  prueba: { label: 'Try', description: 'The studio’s Try panel.' },
};

export const channelLabel = (channel: string): string => channelWords[channel]?.label ?? channel;

/** A tool's name and one line about it: our service's words, else the name made readable. */
export function toolWords(
  config: AgentConfig | undefined,
  tool: string,
): { label: string; description: string } {
  const told = agentAbout(config)?.tools[tool];
  if (told) return told;
  const readable = tool.replace(/[_-]+/g, ' ').trim();
  return {
    label: readable.charAt(0).toUpperCase() + readable.slice(1),
    description: 'This server does not describe this tool.',
  };
}

/** Why a section is hidden for an engine without a workspace of its own. */
export function noMachineReason(config: AgentConfig | undefined): string {
  const engine = config?.engine ? engineWords(config, config.engine).name : 'This agent’s engine';
  return `Not available: ${engine} has no workspace of its own, so there is nothing to hold workspace files, MCP servers or built-in tools, or to restart.`;
}

export function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
