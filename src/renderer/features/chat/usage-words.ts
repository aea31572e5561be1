import type { Usage } from '../../model/turn-reducer';

/** "1,234 tokens · $0.0123", quiet and short; empty when nothing useful is known. */
export function usageWords(usage: Usage | undefined): string {
  if (!usage) return '';
  const words: string[] = [];
  const tokens = (usage.input ?? 0) + (usage.output ?? 0) || usage.used;
  if (tokens) words.push(`${tokens.toLocaleString('en-US')} tokens`);
  if (typeof usage.cost === 'number') words.push(`$${usage.cost.toFixed(usage.cost < 0.01 ? 4 : 2)}`);
  return words.join(' · ');
}
