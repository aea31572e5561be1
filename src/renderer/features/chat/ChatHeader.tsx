import { useEffect, useState } from 'react';
import { useAgentsStore } from '../../stores/agents-store';
import { useArchiveStore } from '../../stores/archive-store';
import { useConversationsStore } from '../../stores/conversations-store';
import { selectStream, useTurnStreamStore } from '../../stores/turn-stream-store';
import { useUiStore } from '../../stores/ui-store';
import { conversationMarkdown, exportFileName } from '../../model/conversation-markdown';
import { showDirectionControls } from '../../model/bidi-controls';
import { ChatHeaderMenu } from './ChatHeaderMenu';
import { download, exportStored } from '../../ui/export-download';
import { ModelPicker } from './ModelPicker';
import { RenameDialog } from './RenameDialog';
import { ShareDialog } from './ShareDialog';

/**
 * One line: the agent and the conversation's title, the model picker, Share, and "…" for the rest
 * (rename, schedule, export, link, archive).
 */
export function ChatHeader(props: { agentId: string; sessionId: string; title: string }) {
  const { agentId, sessionId, title } = props;
  const agentName = useAgentsStore((s) => s.agents.find((a) => a.id === agentId)?.name);
  const shared = useConversationsStore((s) => s.shares[sessionId]?.shared === true);
  const [dialog, setDialog] = useState<'rename' | 'share' | null>(null);
  // Share… on this conversation's sidebar row opens the same dialog here.
  const shareAsked = useUiStore((s) => s.shareAsked === sessionId);
  useEffect(() => {
    if (!shareAsked) return;
    useUiStore.getState().askShare(null);
    setDialog('share');
  }, [shareAsked]);
  const [exportNote, setExportNote] = useState('');
  // Notes that must not cover the messages (the model's) take a line of their own under the header.
  const [noteLine, setNoteLine] = useState<HTMLDivElement | null>(null);

  // Whether it is shared is the server's to say: asked on opening, so a reload does not forget it.
  useEffect(() => {
    void useConversationsStore.getState().loadShare(agentId, sessionId);
  }, [agentId, sessionId]);

  const exportAs = async (format: 'markdown' | 'json') => {
    setExportNote('');
    const problem = await exportStored(agentId, sessionId, format);
    if (!problem) return;
    if (format === 'json') return setExportNote(problem);
    // The store could not help (e.g. nothing stored yet): export what is on screen.
    const thread = useConversationsStore.getState().threads[sessionId];
    const stream = selectStream(sessionId)(useTurnStreamStore.getState());
    const text = conversationMarkdown(title, thread?.messages ?? [], stream, thread?.skipped ?? 0);
    download(exportFileName(title), 'text/markdown', text);
  };

  return (
    <>
      <header className="chat-header">
        <div className="chat-heading">
          {agentName ? (
            <span className="chat-agent" title="Agent">
              {showDirectionControls(agentName)}
            </span>
          ) : null}
          <h2 className="chat-title" title={title}>
            {showDirectionControls(title)}
          </h2>
        </div>
        <ModelPicker agentId={agentId} sessionId={sessionId} noteLine={noteLine} />
        <button
          type="button"
          className={shared ? 'shared' : undefined}
          aria-label={shared ? 'Shared: anyone with the link can read it' : 'Share'}
          title={shared ? 'Shared: anyone with the link can read it' : 'Share a read-only link'}
          onClick={() => setDialog('share')}
        >
          {shared ? 'Shared' : 'Share'}
        </button>
        <ChatHeaderMenu
          agentId={agentId}
          sessionId={sessionId}
          actions={{
            rename: () => setDialog('rename'),
            exportAs: (format) => void exportAs(format),
            // No question first: Undo follows for a few seconds.
            archive: () => useArchiveStore.getState().archive(agentId, sessionId),
          }}
        />
        {exportNote ? (
          <p className="header-note error-text" role="alert">
            {exportNote}
          </p>
        ) : null}
        {dialog === 'rename' ? (
          <RenameDialog
            agentId={agentId}
            sessionId={sessionId}
            title={title}
            onClose={() => setDialog(null)}
          />
        ) : null}
        {dialog === 'share' ? (
          <ShareDialog agentId={agentId} sessionId={sessionId} onClose={() => setDialog(null)} />
        ) : null}
      </header>
      <div className="chat-note-line" ref={setNoteLine} />
    </>
  );
}
