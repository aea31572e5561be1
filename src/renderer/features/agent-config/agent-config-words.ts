import { agentAbout, type AgentConfiguration } from '../../../shared/api';
import { engineWords } from '../../model/agent-words';
import type { AgentConfigSection } from '../../stores/agent-config-store';

/** Section names, in the order the studio lists them. */
export const sectionTitles: Record<AgentConfigSection, string> = {
  identity: 'Identity',
  engine: 'Engine and model',
  channels: 'Channels and web search',
  tools: 'Tools',
  permissions: 'Permissions',
  mcp: 'MCP servers',
  skills: 'Skills',
  files: 'Workspace files',
  restart: 'Restart',
  bundle: 'Export and import',
  numbers: 'Business chat numbers',
};

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
  config: AgentConfiguration | undefined,
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
export function noMachineReason(config: AgentConfiguration | undefined): string {
  const engine = config?.engine ? engineWords(config, config.engine).name : 'This agent’s engine';
  return `Not available: ${engine} has no workspace of its own, so there is nothing to hold workspace files, MCP servers or built-in tools, or to restart.`;
}

export function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
