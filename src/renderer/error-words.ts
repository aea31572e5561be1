import type { DeskError } from '../shared/bridge';

/** The spec's 409 agente_no_acp in a person's words: what it means and what to do (never the engine's id). */
export const NO_CONVERSATIONS_WORDS =
  'This agent cannot hold conversations: it has no workspace of its own. To chat with it, choose another engine in Configure agent, under Engine and model.';

/**
 * A DeskError as a sentence for people. The host already gives plain
 * sentences (the API's `detalle` or `message`, e.g. the 402 text); a few
 * codes get wording that says what to do next.
 */
export function errorWords(error: DeskError | undefined): string {
  if (!error) return '';
  // The server's own words for a 402 are shown once, in the allowance banner.
  if (error.status === 402) return 'Not sent: your plan does not cover it right now (see the notice above).';
  switch (error.code) {
    case 'agente_no_acp':
      return NO_CONVERSATIONS_WORDS;
    case 'network':
      return 'The server could not be reached. Check that it is running and try again.';
    case 'signed_out':
    case 'session_expired':
      return 'You are signed out. Sign in again to continue.';
    case 'bridge_unavailable':
      return 'AgentDesk lost contact with its host. Reload the window to reconnect.';
    default:
      return error.message || 'Something went wrong. Please try again.';
  }
}
