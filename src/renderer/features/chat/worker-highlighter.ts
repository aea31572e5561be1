import type { CodePieces } from './code-pieces';
import type { HighlightAnswer, HighlightRequest } from './code-tokens';

/**
 * The window's side of the highlighting worker: one worker, started on first use, answering
 * requests by id. A recent answer is kept, so a block scrolled out of the virtual list and back
 * is not highlighted twice. Where workers cannot run, every block simply stays plain code.
 */
let worker: Worker | null | undefined;
let nextId = 1;
const waiting = new Map<number, (pieces: CodePieces | null) => void>();
const recent = new Map<string, CodePieces | null>();
const keptAnswers = 8;

function started(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./code-highlight.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (message: MessageEvent<HighlightAnswer>) => {
      waiting.get(message.data.id)?.(message.data.pieces);
      waiting.delete(message.data.id);
    };
    worker.onerror = () => {
      // A worker that cannot load: every block waiting or to come stays plain.
      for (const done of waiting.values()) done(null);
      waiting.clear();
      worker?.terminate();
      worker = null;
    };
  } catch {
    worker = null;
  }
  return worker;
}

/** The code's highlighted pieces, computed in the worker; null when it stays plain. */
export function highlightOffThread(language: string, code: string): Promise<CodePieces | null> {
  const key = `${language}\u0000${code}`;
  if (recent.has(key)) return Promise.resolve(recent.get(key) ?? null);
  const runner = started();
  if (!runner) return Promise.resolve(null);
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, (pieces) => {
      recent.set(key, pieces);
      if (recent.size > keptAnswers) recent.delete(recent.keys().next().value as string);
      resolve(pieces);
    });
    runner.postMessage({ id, language, code } satisfies HighlightRequest);
  });
}
