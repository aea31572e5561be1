import type { ModelMessage } from 'ai';

/** Used when the provider does not say how much its model takes in: a common size today. */
export const DEFAULT_CONTEXT_TOKENS = 128_000;

/** About four characters a token: rough, but the same on every provider, and only used to decide what to cut. */
export function estimateTokens(value: unknown): number {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return Math.ceil(text.length / 4);
}

export interface Fitted {
  messages: ModelMessage[];
  /** How many of the oldest messages were left out. */
  dropped: number;
  /** The budget it was fitted to, in tokens. */
  budget: number;
}

/**
 * The conversation as it fits the model's context: whole exchanges are left out from the oldest end
 * (the kept part always starts at a person's message, so no tool result loses its call) until the
 * rest, with the system prompt and room for the reply, fits. The last exchange is always kept.
 */
export function fitToContext(
  messages: ModelMessage[],
  system: string,
  contextTokens: number | undefined,
): Fitted {
  const size = contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  const reply = Math.min(8_192, Math.floor(size / 4));
  const budget = Math.max(0, size - reply - estimateTokens(system));
  const costs = messages.map(estimateTokens);
  let total = costs.reduce((a, b) => a + b, 0);
  let start = 0;
  while (total > budget) {
    const next = messages.findIndex((m, i) => i > start && m.role === 'user');
    if (next === -1) break;
    for (let i = start; i < next; i++) total -= costs[i]!;
    start = next;
  }
  return { messages: messages.slice(start), dropped: start, budget };
}
