import type {
  AgentConfig,
  AgentConfigPatch,
  AgentConfiguration,
  AppliedBundle,
  BundlePostResult,
  InstalledSkill,
  PatchAgentBody,
  SkillPutResult,
} from '../../shared/api';
import type { PatchApplied, PatchRefusal } from '../agent-config/agent-config-patch';
import type { RefusalAnswers } from '../http/errors';

/**
 * The agent configuration's wire words, read and written once here (docs/architecture.md, glossary): the
 * service says `tools.channels`, the wire `tools.canales`; `applied`, `ignored`, `note` are `aplicado`,
 * `ignorado`, `nota`. The rest of each body has the same names on both sides.
 */

/** A configuration as GET and PATCH answer it. `tools` keeps its place among the fields. */
export function agentConfigBody(config: AgentConfiguration): AgentConfig {
  if (!config.tools) return config;
  const { channels, ...toggles } = config.tools;
  return { ...config, tools: { ...toggles, ...(channels !== undefined ? { canales: channels } : {}) } };
}

/** PATCH agents/{id}: how each refusal reads on the wire. */
export const patchRefusals: RefusalAnswers<PatchRefusal> = {
  invalid: [400, 'body_invalido'],
  unknown_model: [400, 'modelo_invalido'],
  nothing_to_change: [400, 'nada_que_cambiar'],
  machine_not_applied: [502, 'maquina_no_aplico'],
};

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

/** PUT skills/{slug}: the skill installed. */
export const installedSkillBody = ({ note, ...skill }: InstalledSkill): SkillPutResult => ({
  ...skill,
  nota: note,
});

/** POST bundle: what the posted files did. */
export const appliedBundleBody = ({ applied, ignored, note }: AppliedBundle): BundlePostResult => ({
  aplicado: applied,
  ignorado: ignored,
  nota: note,
});
