import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentSettings } from './config-store';
import type { McpServer } from './mcp-servers';
import { extensionStates } from './service-tools';
import { writeAtomically } from '../workspace/write-atomically';

/**
 * The machine configuration file (`<agent>/machine/config.json`, on the agent's disk but outside its
 * workspace, like goose's config.yaml): extensions, MCP servers, model and identity prompt. It is
 * rewritten whenever one of them changes and read back for `?full=1`.
 */
export interface MachineConfigFile {
  engine: string;
  model: string | null;
  prompt: string;
  promptMode: 'append' | 'replace';
  extensions: { name: string; enabled: boolean }[];
  mcpServers: McpServer[];
}

export async function writeMachineConfig(
  file: string,
  engine: string,
  settings: AgentSettings,
): Promise<void> {
  const config: MachineConfigFile = {
    engine,
    model: settings.model,
    prompt: settings.prompt,
    promptMode: settings.promptMode,
    extensions: extensionStates(settings.vetoes),
    mcpServers: settings.mcp,
  };
  await mkdir(path.dirname(file), { recursive: true });
  await writeAtomically(file, Buffer.from(`${JSON.stringify(config, null, 2)}\n`, 'utf8'));
}

export async function readMachineConfig(file: string): Promise<MachineConfigFile | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as MachineConfigFile;
  } catch {
    return null;
  }
}
