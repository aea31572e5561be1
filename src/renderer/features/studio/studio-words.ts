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
  numbers: 'Msgapp1 numbers',
};

/** What each engine is, in plain words: whether it has a machine is what decides most of the studio. */
export const engineWords: Record<string, { label: string; machine: boolean; about: string }> = {
  'house-lite': {
    label: 'House Lite',
    machine: false,
    about:
      'No machine: the service keeps the agent as a bundle and seeds it into each turn. No workspace files, MCP servers, extensions or restart.',
  },
  'engine-b': {
    label: 'Engine B',
    machine: true,
    about: 'Its own machine (ACP) with a persistent workspace, skills, MCP servers and restart.',
  },
  'engine-c': {
    label: 'Engine C',
    machine: true,
    about: 'Its own machine (ACP) with a persistent workspace, skills, MCP servers and restart.',
  },
  'engine-d': {
    label: 'Engine D',
    machine: true,
    about: 'Its own machine (ACP) with a persistent workspace, skills, MCP servers and restart.',
  },
  'engine-e': {
    label: 'Engine E',
    machine: true,
    about: 'Its own machine (ACP) with a persistent workspace, skills, MCP servers and restart.',
  },
};

export const channelWords: Record<string, string> = {
  chat: 'Chat',
  workchat: 'Work chat',
  web: 'Web',
  msgapp1: 'Msgapp1 (business chat)',
  msgapp2: 'Msgapp2 (page)',
  programado: 'Scheduled',
  prueba: 'Try',
};

/** Why a section is hidden for an engine without a machine. */
export function noMachineReason(engine: string): string {
  return `Not available: this agent's engine (${engine || 'unknown'}) has no machine of its own, so there is nothing to hold workspace files, MCP servers or extensions, or to restart.`;
}

export function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
