import type { DeskBridge } from '../../../shared/bridge';
import type { MemoryArea } from './host-memory';

type Remembered = Pick<
  DeskBridge,
  | 'listAgents'
  | 'listConversations'
  | 'renameConversation'
  | 'sendMessage'
  | 'rewindConversation'
  | 'removeProfile'
  | 'deleteAccount'
>;

/**
 * Lets the memory area hear the calls it keeps something of, without those areas knowing it:
 * agent and conversation lists (served from the store while offline), a rename (so an export
 * carries the new title at once), each accepted turn (its
 * text and attachments' names, types and sizes), and a removed profile or deleted account (whose
 * transcripts are deleted).
 */
export function withMemory<B extends Remembered>(memory: MemoryArea, bridge: B): B {
  return {
    ...bridge,
    async listAgents() {
      return memory.rememberAgents(memory.offlineAnswer() ?? (await bridge.listAgents()));
    },
    async listConversations(agentId) {
      return memory.rememberConversations(
        agentId,
        memory.offlineAnswer() ?? (await bridge.listConversations(agentId)),
      );
    },
    async renameConversation(agentId, sessionId, title) {
      const renamed = await bridge.renameConversation(agentId, sessionId, title);
      if (renamed.ok) memory.noteTitle(agentId, sessionId, title);
      return renamed;
    },
    async sendMessage(agentId, sessionId, input) {
      const accepted = await bridge.sendMessage(agentId, sessionId, input);
      if (accepted.ok) memory.noteSent(agentId, sessionId, input, accepted.value.turnId);
      return accepted;
    },
    async rewindConversation(agentId, sessionId, keep) {
      const rewound = await bridge.rewindConversation(agentId, sessionId, keep);
      const first = rewound.ok ? rewound.value.messages[0] : undefined;
      if (first) memory.noteRewound(sessionId, keep, first.at);
      return rewound;
    },
    async deleteAccount() {
      const deleted = await bridge.deleteAccount();
      if (deleted.ok) await memory.bridge.clearMemory();
      return deleted;
    },
    async removeProfile(profileId) {
      const removed = await bridge.removeProfile(profileId);
      if (removed.ok) memory.forget(profileId);
      return removed;
    },
  };
}
