import { create } from 'zustand';
import type { Connectivity } from '../../shared/bridge';
import { desk } from '../desk';
import { useAgentsStore } from './agents-store';
import { useConversationsStore } from './conversations-store';
import { readThread } from './thread-read';

interface ConnectivityStore extends Connectivity {
  /** Starts listening to the host (once); later calls do nothing. */
  watch(): void;
}

let watching = false;

/**
 * Whether the server can be reached. While it can't, stored conversations open read-only and sending
 * waits; when it is back, the open lists and thread load again by themselves.
 */
export const useConnectivityStore = create<ConnectivityStore>((set, get) => ({
  online: true,
  watch() {
    if (watching) return;
    watching = true;
    desk().onConnectivity((next) => {
      const wasOffline = !get().online;
      set({ online: next.online, reason: next.reason });
      if (wasOffline && next.online) void reloadAfterOffline();
    });
  },
}));

async function reloadAfterOffline(): Promise<void> {
  await useAgentsStore.getState().load();
  const agentId = useAgentsStore.getState().selectedAgentId;
  if (!agentId) return;
  const conversations = useConversationsStore.getState();
  await conversations.load(agentId);
  const sessionId = useConversationsStore.getState().selectedId;
  // Its live timeline folds into what is read: a turn the server ended while away is shown once.
  if (sessionId) await readThread(agentId, sessionId);
}

/** The reason sending is not possible right now, or null. */
export function sendBlockedReason(online: boolean): string | null {
  return online
    ? null
    : "Offline: the server can't be reached, so messages can't be sent. Reading stored conversations still works.";
}
