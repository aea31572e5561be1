import { useEffect } from 'react';
import { useConversationsStore } from '../../stores/conversations-store';

/**
 * The spec has no event for the conversation list, so conversations started elsewhere (another device,
 * the CLI, a scheduled turn) are found by asking for the list again: every 10 s while the window is
 * seen, and at once when it is seen again. One small GET; the list re-renders only when it changed.
 */
export const LIST_REFRESH_MS = 10_000;

export function useListRefresh(agentId: string | null): void {
  useEffect(() => {
    if (!agentId) return;
    const refresh = () => {
      if (document.visibilityState === 'visible') void useConversationsStore.getState().refresh(agentId);
    };
    const timer = setInterval(refresh, LIST_REFRESH_MS);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [agentId]);
}
