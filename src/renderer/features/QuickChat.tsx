import { useEffect } from 'react';
import { desk } from '../desk';
import { useAgentsStore } from '../stores/agents-store';
import { useConversationsStore } from '../stores/conversations-store';
import { useUiStore } from '../stores/ui-store';
import { unwatchAll } from './chat/chat-actions';
import { ChatView } from './chat/ChatView';
import { ComposerTools } from './ComposerTools';
import { QuickHead, useEscapeCloses } from './quick/QuickHead';

/**
 * The quick chat (`#quick`): the desktop app's small window on top, opened by its global shortcut, and the same
 * page in browser mode. A new conversation with the agent used last (the main window's, from ui-state.json)
 * or the one picked here, its message box ready; Escape closes the window.
 */
export function QuickChat() {
  const agentId = useAgentsStore((s) => s.selectedAgentId);
  const sessionId = useConversationsStore((s) => s.selectedId);
  const problem = useConversationsStore((s) => s.starting?.problem || s.notice);
  useEscapeCloses();

  // The agent used last is chosen before the list arrives, so no conversation is made for another.
  useEffect(() => {
    void desk()
      .getUiState()
      .then((result) => {
        if (result.ok && result.value.lastAgentId)
          useAgentsStore.getState().select(result.value.lastAgentId, true);
        void useAgentsStore.getState().load();
      });
  }, []);

  // Each agent chosen here starts a new conversation (an empty one of its own is reused, as + New does).
  useEffect(() => {
    if (!agentId) return;
    unwatchAll();
    void useAgentsStore.getState().loadConfig(agentId);
    const conversations = useConversationsStore.getState();
    conversations.select(null);
    useUiStore.getState().focusComposer();
    void conversations.load(agentId).then(() => useConversationsStore.getState().create(agentId));
  }, [agentId]);

  useEffect(() => () => unwatchAll(), []);

  return (
    <div className="quick-chat">
      <QuickHead />
      <main className="content">
        {agentId && sessionId ? (
          <ChatView
            key={sessionId}
            agentId={agentId}
            sessionId={sessionId}
            composerTools={ComposerTools}
            compact
          />
        ) : (
          <p className="empty-state" role={problem ? 'alert' : 'status'}>
            {problem || 'Starting a new conversation…'}
          </p>
        )}
      </main>
    </div>
  );
}
