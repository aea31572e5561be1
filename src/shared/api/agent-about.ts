import { z } from 'zod';

/**
 * Our extension on GET agents/{id} (docs/extensions.md): `about`, what each engine and tool is in a
 * person's words. A spec-only server sends none; clients then use their own plainer words.
 */
export const EngineAbout = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  hasMachine: z.boolean(),
  /**
   * False for an engine the service keeps but does not offer a person: a place for an agent program
   * that none fills (it still runs the demo agent, for tests). Absent: offered.
   */
  offered: z.boolean().optional(),
  /** The engine runs the service's model agent on the person's providers (its `models` are theirs). */
  onYourModels: z.boolean().optional(),
});
export type EngineAbout = z.infer<typeof EngineAbout>;

export const ToolAbout = z.object({ label: z.string(), description: z.string() });
export type ToolAbout = z.infer<typeof ToolAbout>;

export const AgentAbout = z.object({
  engines: z.array(EngineAbout),
  tools: z.record(z.string(), ToolAbout),
});
export type AgentAbout = z.infer<typeof AgentAbout>;

/** The `about` of an agent configuration, when the server sent a readable one. */
export function agentAbout(config: Record<string, unknown> | undefined): AgentAbout | undefined {
  const parsed = AgentAbout.safeParse(config?.['about']);
  return parsed.success ? parsed.data : undefined;
}
