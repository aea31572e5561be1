/**
 * The tools the service lends to every agent (`tools.gs`), the machine extensions (`tools.extensions`)
 * and how saved vetoes turn into the EFFECTIVE state per channel (`tools.channels`, the wire's `tools.canales`).
 *
 * Saved state holds vetoes only: `false` vetoes a tool, `true` removes the veto ("returns to the
 * default"). A tool is on for a channel when its channel default is on, it is not vetoed globally
 * (`gs`) and not vetoed on that channel.
 */

export const TOOL_CHANNELS = ['chat', 'workchat', 'msgapp1', 'msgapp2', 'programado', 'prueba'] as const;
export type ToolChannelName = (typeof TOOL_CHANNELS)[number];

interface LentTool {
  name: string;
  description: string;
  /** Channels where the tool is off by default (and `true` cannot turn it on). */
  offOn?: readonly ToolChannelName[];
}

/** Customer-facing channels: a stranger talks to the agent there. */
const CUSTOMER_CHANNELS: readonly ToolChannelName[] = ['msgapp1', 'msgapp2'];

export const LENT_TOOLS: readonly LentTool[] = [
  {
    name: 'account_files',
    description: "Lists the owner's account file library, each file with a signed link valid 6 hours.",
    // A customer must never read the owner's files.
    offOn: CUSTOMER_CHANNELS,
  },
  {
    name: 'send_file',
    description:
      'Shares a workspace file: copies it to the account library and returns a signed link to give the person.',
  },
  { name: 'connectors', description: "Lists the owner's connected providers." },
];

/** Extensions of the machine configuration file, all enabled unless vetoed. */
export const MACHINE_EXTENSIONS = ['developer', 'todo', 'analyze'] as const;

export type Vetoes = Record<string, false>;

export interface ToolVetoes {
  gs: Vetoes;
  extensions: Vetoes;
  channels: Partial<Record<ToolChannelName, Vetoes>>;
}

export const NO_VETOES: ToolVetoes = { gs: {}, extensions: {}, channels: {} };

/** Applies a PATCH map: `false` adds a veto, `true` removes it. */
export function mergeVetoes(saved: Vetoes, patch: Record<string, boolean>): Vetoes {
  const next: Vetoes = { ...saved };
  for (const [name, on] of Object.entries(patch)) {
    if (on) delete next[name];
    else next[name] = false;
  }
  return next;
}

export function sameVetoes(a: Vetoes, b: Vetoes): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}

export function effectiveGs(vetoes: ToolVetoes): Record<string, boolean> {
  return Object.fromEntries(LENT_TOOLS.map((t) => [t.name, vetoes.gs[t.name] !== false]));
}

export function isToolOn(vetoes: ToolVetoes, channel: ToolChannelName, tool: string): boolean {
  const lent = LENT_TOOLS.find((t) => t.name === tool);
  if (!lent) return false;
  if (lent.offOn?.includes(channel)) return false;
  if (vetoes.gs[tool] === false) return false;
  return vetoes.channels[channel]?.[tool] !== false;
}

/** `tools.channels`: channel → every lent tool → effective boolean. */
export function effectiveChannels(vetoes: ToolVetoes): Record<string, Record<string, boolean>> {
  return Object.fromEntries(
    TOOL_CHANNELS.map((channel) => [
      channel,
      Object.fromEntries(LENT_TOOLS.map((t) => [t.name, isToolOn(vetoes, channel, t.name)])),
    ]),
  );
}

/** The lent tools an agent sees on a channel: vetoed ones disappear from the list. */
export function visibleTools(vetoes: ToolVetoes, channel: ToolChannelName): LentTool[] {
  return LENT_TOOLS.filter((t) => isToolOn(vetoes, channel, t.name));
}

export function extensionStates(vetoes: ToolVetoes): { name: string; enabled: boolean }[] {
  return MACHINE_EXTENSIONS.map((name) => ({ name, enabled: vetoes.extensions[name] !== false }));
}

/** Names in a PATCH that are not tools of that kind, for a 400 that names them. */
export function unknownNames(patch: Record<string, boolean>, known: readonly string[]): string[] {
  return Object.keys(patch).filter((name) => !known.includes(name));
}
