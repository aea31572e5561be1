import type { AgentConfig, AgentConfigPatch, AgentConfiguration, PatchAgentBody } from '../../shared/api';
import type { PatchApplied } from '../agent-config/agent-config-patch';

/**
 * The agent configuration's wire words, read and written once here (docs/architecture.md, glossary): the
 * service says `tools.channels`, the wire `tools.canales`. The rest of the body has the same names on both
 * sides; the save's `applied` and `note` are written as `aplicado` and `nota` by the route.
 */

/** A configuration as GET and PATCH answer it. `tools` keeps its place among the fields. */
export function agentConfigBody(config: AgentConfiguration): AgentConfig {
  if (!config.tools) return config;
  const { channels, ...toggles } = config.tools;
  return { ...config, tools: { ...toggles, ...(channels !== undefined ? { canales: channels } : {}) } };
}

/** The PATCH answer: the configuration, `aplicado` (the fields it changed) and `nota`. */
export const savedAgentConfigBody = ({ config, applied, note }: PatchApplied): AgentConfig => ({
  ...agentConfigBody(config),
  aplicado: applied.map(wireFieldPaths),
  nota: wireFieldPaths(note),
});

/** A PATCH body as the service takes it. */
export function agentConfigPatch({ tools, ...rest }: PatchAgentBody): AgentConfigPatch {
  if (tools === undefined) return rest;
  const { canales, ...toggles } = tools;
  return { ...rest, tools: { ...toggles, ...(canales !== undefined ? { channels: canales } : {}) } };
}

/**
 * The service names the fields a change touched (in `applied`, its note, a refusal) in our words; the caller
 * wrote the wire's, so the answer names them so.
 */
export const wireFieldPaths = (text: string): string => text.replace(/\btools\.channels\b/g, 'tools.canales');
