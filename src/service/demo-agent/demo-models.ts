import type { DemoSession } from './session-store';
import type { DemoTurnStream } from './turn-stream';

export const DEMO_MODELS = [
  { id: 'demo-fast', label: 'Demo Fast', contextSize: 32_768, costPerToken: 0.5e-6 },
  { id: 'demo-deep', label: 'Demo Deep', contextSize: 131_072, costPerToken: 2e-6 },
] as const;

/** Token estimate: about four characters a token, as rough as it is predictable. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/**
 * Adds a finished turn to the session's token totals, streams `usage_update` (context used, size,
 * cost at the session's model) and returns the prompt's usage (session totals).
 */
export async function reportUsage(stream: DemoTurnStream, session: DemoSession) {
  const model = DEMO_MODELS.find((m) => m.id === session.model) ?? DEMO_MODELS[0];
  const transcript = session.messages.map((m) => m.text).join('\n');
  session.inputTokens += estimateTokens(transcript);
  session.outputTokens += estimateTokens(stream.reply + stream.thoughts);
  const cost = (session.inputTokens + 3 * session.outputTokens) * model.costPerToken;
  await stream.send({
    sessionUpdate: 'usage_update',
    used: estimateTokens(transcript),
    size: model.contextSize,
    cost: { amount: Math.round(cost * 1e6) / 1e6, currency: 'USD' },
  });
  return {
    inputTokens: session.inputTokens,
    outputTokens: session.outputTokens,
    totalTokens: session.inputTokens + session.outputTokens,
  };
}
