import { useServerOffers } from '../../ui/use-server-offers';
import type { RedoWay } from './message-actions';

/** How Retry and Edit work on the signed-in server (message-actions.ts `redoWay`), for the words shown. */
export function useRedoWay(): RedoWay {
  const rewind = useServerOffers('rewindConversation');
  const fork = useServerOffers('forkConversation');
  return rewind ? 'rewind' : fork ? 'branch' : 'append';
}
