import {
  agentAbout,
  AgentConfiguration,
  type AgentConfig,
  type AgentConfigPatch,
  type AgentRestart,
  type AgentToolStates,
  type AppliedBundle,
  type BundlePostResult,
  type FilePutResult,
  type InstalledSkill,
  type McpPutResult,
  type McpServerStatus,
  type McpStatusResponse,
  type MsgappNumberList,
  type MsgappNumbers,
  type PatchAgentBody,
  type RestartResult,
  type SavedAgentConfiguration,
  type SavedMcpServers,
  type SkillPutResult,
  type WrittenWorkspaceFile,
} from '../../shared/api';

/** The wire's agent-config words -> ours (shared/api/agent-config.ts), read and written once here. */

const CONFIG_FIELDS = Object.keys(AgentConfiguration.shape).filter(
  (key) => key !== 'tools' && key !== 'about',
);

function toolsFromWire({ gs, extensions, canales }: NonNullable<AgentConfig['tools']>): AgentToolStates {
  return {
    ...(gs !== undefined ? { gs } : {}),
    ...(extensions !== undefined ? { extensions } : {}),
    ...(canales !== undefined ? { channels: canales } : {}),
  };
}

/** Only our fields: a newer server's extras, and the save's `aplicado`/`nota`, stay on the wire. */
export function agentConfigFromWire(wire: AgentConfig): AgentConfiguration {
  const config: Record<string, unknown> = {};
  for (const key of CONFIG_FIELDS) if (wire[key] !== undefined) config[key] = wire[key];
  if (wire.tools !== undefined) config['tools'] = toolsFromWire(wire.tools);
  const about = agentAbout(wire);
  if (about) config['about'] = about;
  return config as AgentConfiguration;
}

export function savedAgentConfigFromWire(wire: AgentConfig): SavedAgentConfiguration {
  return {
    ...agentConfigFromWire(wire),
    ...(wire.aplicado !== undefined ? { applied: wire.aplicado } : {}),
    ...(wire.nota !== undefined ? { note: wire.nota } : {}),
  };
}

export function agentConfigPatchToWire({ tools, ...rest }: AgentConfigPatch): PatchAgentBody {
  if (tools === undefined) return rest;
  const { channels, ...toggles } = tools;
  return { ...rest, tools: { ...toggles, ...(channels !== undefined ? { canales: channels } : {}) } };
}

export const savedMcpServersFromWire = (wire: McpPutResult): SavedMcpServers => ({
  servers: wire.servers,
  restarted: wire.reiniciado,
});

export const mcpStatusFromWire = (wire: McpStatusResponse): McpServerStatus[] =>
  wire.servidores.map(({ name, conectado, herramientas, detalle }) => ({
    name,
    connected: conectado,
    tools: herramientas,
    ...(detalle ? { problem: detalle } : {}),
  }));

export const installedSkillFromWire = ({ slug, files, bytes, nota }: SkillPutResult): InstalledSkill => ({
  slug,
  files,
  bytes,
  note: nota,
});

export const writtenFileFromWire = ({ path, bytes, en }: FilePutResult): WrittenWorkspaceFile => ({
  path,
  bytes,
  location: en,
});

export const appliedBundleFromWire = (wire: BundlePostResult): AppliedBundle => ({
  applied: wire.aplicado,
  ignored: wire.ignorado,
  note: wire.nota,
});

export const restartFromWire = (wire: RestartResult): AgentRestart => ({
  restarted: wire.reiniciado,
  sandboxId: wire.sandboxId,
});

export const msgappNumbersFromWire = (wire: MsgappNumbers): MsgappNumberList => ({
  numbers: wire.numbers.map(({ id, label, mine, takenByOther }) => ({ id, label, mine, takenByOther })),
  hasWorkspace: wire.hasWorkspace,
  hasSales: wire.hasSales,
  salesUrl: wire.salesUrl,
  ...(wire.cambiados !== undefined ? { changed: wire.cambiados } : {}),
});
