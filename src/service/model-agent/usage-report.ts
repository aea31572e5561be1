import type { LanguageModelUsage } from 'ai';
import type { HandedModel } from './handoff';
import { DEFAULT_CONTEXT_TOKENS } from './context-window';
import type { ModelSession } from './session';

/**
 * Folds a turn's token counts, as the provider gave them, into the session's totals, and the cost
 * where the model's price is known (never a guessed one). Returns the ACP `usage_update` (context
 * used and size, cost only when known) and the prompt answer's usage (session totals).
 */
export function foldUsage(
  session: ModelSession,
  model: HandedModel,
  total: LanguageModelUsage,
  lastStep: LanguageModelUsage | undefined,
) {
  const input = total.inputTokens ?? 0;
  const output = total.outputTokens ?? 0;
  session.inputTokens += input;
  session.outputTokens += output;
  if (model.price) {
    session.cost =
      (session.cost ?? 0) + (input * model.price.input + output * model.price.output) / 1_000_000;
  }
  const used = (lastStep?.inputTokens ?? input) + (lastStep?.outputTokens ?? output);
  const update = {
    sessionUpdate: 'usage_update' as const,
    used,
    size: model.contextWindow ?? DEFAULT_CONTEXT_TOKENS,
    ...(session.cost !== null
      ? { cost: { amount: Math.round(session.cost * 1e6) / 1e6, currency: 'USD' } }
      : {}),
  };
  const prompt = {
    inputTokens: session.inputTokens,
    outputTokens: session.outputTokens,
    totalTokens: session.inputTokens + session.outputTokens,
  };
  return { update, prompt };
}
