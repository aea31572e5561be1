/**
 * The model the person picked for a conversation, kept in the window's storage until the server's next
 * `models` event speaks: the server holds the choice, but says it only when the next reply starts, so
 * a reload in between would otherwise show the old model.
 */
const key = (sessionId: string) => `agentdesk.chosen-model.${sessionId}`;

export function rememberChosenModel(sessionId: string, model: string): void {
  try {
    localStorage.setItem(key(sessionId), model);
  } catch {
    // Storage refused (private mode, quota): the choice is still shown until a reload.
  }
}

export function rememberedModel(sessionId: string): string | undefined {
  try {
    return localStorage.getItem(key(sessionId)) ?? undefined;
  } catch {
    return undefined;
  }
}

export function forgetChosenModel(sessionId: string): void {
  try {
    localStorage.removeItem(key(sessionId));
  } catch {
    // Nothing was kept.
  }
}
