import { generateText, type LanguageModel } from 'ai';

const TITLE_TIMEOUT_MS = 15_000;

/**
 * A short title for the conversation, written by the model after its first reply (one small request
 * with its own timeout); null when the model gives none in time. The service keeps a title the
 * person set (it only titles an untitled conversation).
 */
export async function writeTitle(
  model: LanguageModel,
  asked: string,
  replied: string,
  signal: AbortSignal,
): Promise<string | null> {
  try {
    const { text } = await generateText({
      model,
      maxRetries: 0,
      abortSignal: AbortSignal.any([signal, AbortSignal.timeout(TITLE_TIMEOUT_MS)]),
      system:
        'You name conversations. Answer with a title of at most six words, in the language of the conversation, with no quotes and no final period.',
      prompt: `The person wrote:\n${asked.slice(0, 2000)}\n\nThe assistant answered:\n${replied.slice(0, 2000)}\n\nTitle:`,
    });
    return await cleanTitle(text);
  } catch {
    return null;
  }
}

/**
 * The first line it shows as plain words: without a "Title:" label, quotes or Markdown (a model often
 * answers with `**bold**`, `code` or a link however it is asked), and without the punctuation a sentence
 * ends with; null when nothing is left. The Markdown reader is loaded at the first title, not at the agent's
 * start, which the first reply waits for.
 */
export async function cleanTitle(text: string): Promise<string | null> {
  const { firstPlainLine } = await import('../../shared/markdown/plain-text');
  const cleaned = firstPlainLine(text)
    .replace(/^(title|título)\s*:\s*/i, '')
    .replace(/^[*_"'“”‘’`\s]+|[*_"'“”‘’`\s.…:;,]+$/g, '')
    .trim();
  return cleaned ? cleaned.slice(0, 80).trimEnd() : null;
}
