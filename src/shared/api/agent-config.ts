import { z } from 'zod';
import { AgentAbout } from './agent-about';
import type { McpServer } from './resources';
import { AgentConfig, AgentTools } from './resources';
import { PatchAgentBody, PatchAgentTools } from './requests';

/**
 * An agent's configuration and the answers to its saves, in our words. The API client
 * (core/api/agent-config-words.ts) reads them from the wire's `AgentConfig`, `McpPutResult`, `SkillPutResult`,
 * `FilePutResult` and `BundlePostResult`, and writes `AgentConfigPatch` as the wire's `PatchAgentBody`; every
 * other layer uses only these names (docs/architecture.md, glossary). The shapes derive from the wire schemas,
 * so a field the spec adds or checks stays declared once.
 */

/** The tools' states (the wire's `tools`): `channels` is the wire's `canales`, the EFFECTIVE state per channel. */
export const AgentToolStates = AgentTools.omit({ canales: true }).extend({
  channels: AgentTools.shape.canales,
});
export type AgentToolStates = z.infer<typeof AgentToolStates>;

/**
 * An agent's configuration (the wire's `AgentConfig`); only `id` is sure, as `?fields=` filters the rest.
 * `about` is our service's extension (docs/extensions.md), kept only when it reads as one.
 */
export const AgentConfiguration = z
  .object(AgentConfig.shape)
  .omit({ aplicado: true, nota: true, tools: true })
  .extend({ tools: AgentToolStates.optional(), about: AgentAbout.optional() });
export type AgentConfiguration = z.infer<typeof AgentConfiguration>;

/** What a save answers: the configuration, the paths the server took and its note on the engine. */
export type SavedAgentConfiguration = AgentConfiguration & {
  /** `aplicado` */
  applied?: string[];
  /** `nota`: what applies to that engine. */
  note?: string;
};

/** A change of the configuration (the wire's `PatchAgentBody`, `tools.canales` -> `tools.channels`). */
export const AgentConfigPatch = PatchAgentBody.omit({ tools: true }).extend({
  tools: PatchAgentTools.omit({ canales: true })
    .extend({ channels: PatchAgentTools.shape.canales })
    .optional(),
});
export type AgentConfigPatch = z.infer<typeof AgentConfigPatch>;

/** The MCP server list after it was replaced (the wire's `McpPutResult`). */
export interface SavedMcpServers {
  servers: McpServer[];
  /** `reiniciado`: the agent's machine was restarted to take the list. */
  restarted: boolean;
}

/** Whether one MCP server answered (our extension `getAgentMcpStatus`, the wire's `McpServerState`). */
export interface McpServerStatus {
  name: string;
  /** `conectado` */
  connected: boolean;
  /** `herramientas`: its tools' names. */
  tools: string[];
  /** `detalle`: why it did not answer, in words. */
  problem?: string;
}

/** A skill installed in the workspace (the wire's `SkillPutResult`). */
export interface InstalledSkill {
  slug: string;
  files: string[];
  bytes: number;
  /** `nota` */
  note: string;
}

/** A workspace file written (the wire's `FilePutResult`). */
export interface WrittenWorkspaceFile {
  path: string;
  bytes: number;
  /** `en`: where it was written, the absolute path in the agent's workspace. */
  location: string;
}

/** What a bundle's import did (the wire's `BundlePostResult`). */
export interface AppliedBundle {
  /** `aplicado`: paths written. */
  applied: string[];
  /** `ignorado`: paths left out. */
  ignored: string[];
  /** `nota` */
  note: string;
}
