import type { ToolKind } from '@agentclientprotocol/sdk/unstable';
import type { FlexibleSchema } from 'ai';

/** A change a tool makes to a file, shown to the person (permission card, tool event). */
export interface FileChange {
  /** Absolute path. */
  path: string;
  /** The text before; null for a new file. */
  oldText: string | null;
  newText: string;
}

/** What a tool hands back: text for the model, and where it acted. */
export interface ToolOutcome {
  output: string;
  /** Absolute path it acted on, when one. */
  path?: string;
  change?: FileChange;
}

/**
 * One tool of the model agent: a schema and a function, knowing nothing of the provider or of
 * permissions (tool-gate.ts asks the person, reports the call over ACP, and hands the outcome to
 * the model). A tool that cannot do what it was asked throws an Error whose message is for the model.
 */
export interface AgentTool<Input = unknown> {
  name: string;
  description: string;
  inputSchema: FlexibleSchema<Input>;
  /** ACP's kind: read, edit, delete, search, other... */
  kind: ToolKind;
  /** Whether it asks the person first (writes, deletes, MCP tools). */
  asks: boolean;
  /** What the person reads: "Write notes/todo.md". */
  title(input: Input): string;
  /** The change it would make, shown when asking; also where it acts. */
  preview?(input: Input): Promise<{ path?: string; change?: FileChange }>;
  run(input: Input, signal: AbortSignal): Promise<ToolOutcome>;
}

/** Keeps a long output within what a model reads comfortably, saying what was left out. */
export function capText(text: string, max = 50_000): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[… ${text.length - max} more characters left out]`;
}
