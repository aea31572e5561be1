import { highlightCode, type HighlightAnswer, type HighlightRequest } from './code-tokens';

/** The worker's global scope, as much of it as this module uses (the renderer's types are the window's). */
const scope = self as unknown as {
  onmessage: ((message: MessageEvent<HighlightRequest>) => void) | null;
  postMessage(answer: HighlightAnswer): void;
};

/** Highlights large code blocks off the main thread, so a 100 KB block never freezes the window. */
scope.onmessage = (message) => {
  const { id, language, code } = message.data;
  let pieces: HighlightAnswer['pieces'];
  try {
    pieces = highlightCode(language, code);
  } catch {
    // A highlighter failure leaves the block plain; it never breaks the chat.
    pieces = null;
  }
  scope.postMessage({ id, pieces });
};
