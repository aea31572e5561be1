import { useState } from 'react';
import { useConversationsStore } from '../../stores/conversations-store';
import { useTurnStreamStore, selectStream } from '../../stores/turn-stream-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useArchiveStore } from '../../stores/archive-store';
import { conversationMarkdown, exportFileName } from '../../model/conversation-markdown';
import { chooseModel } from './chat-actions';
import { AgentBadge } from './AgentBadge';
import { useSchedulesStore } from '../../stores/schedules-store';
import { useAgentsStore } from '../../stores/agents-store';
import { CopyLinkButton } from '../../ui/CopyLinkButton';
import { download, exportStored } from './export-download';
import { showDirectionControls } from '../../model/bidi-controls';

/** Title, model picker and the conversation's actions: rename, share, export, archive. */
export function ChatHeader(props: { agentId: string; sessionId: string; title: string }) {
  const { agentId, sessionId, title } = props;
  const stream = useTurnStreamStore(selectStream(sessionId));
  const share = useConversationsStore((s) => s.shares[sessionId]);
  const [dialog, setDialog] = useState<'rename' | 'archive' | 'share' | null>(null);
  const [newTitle, setNewTitle] = useState(title);
  const [modelNote, setModelNote] = useState('');
  const [copied, setCopied] = useState(false);
  const [exportNote, setExportNote] = useState('');
  const store = useConversationsStore.getState();

  // The picker is always there: the stream's `models`, else the last stored one, else the agent's configuration.
  const storedModels = useConversationsStore((s) => s.threads[sessionId]?.models);
  const configModels = useAgentsStore((s) => s.configs[agentId]?.models);
  const configModel = useAgentsStore((s) => s.configs[agentId]?.model);
  const models =
    stream.models ??
    storedModels ??
    (configModels?.length ? { options: configModels, current: configModel ?? null } : undefined);
  const modelValue = stream.chosenModel ?? models?.current ?? '';

  const exportAs = async (format: 'markdown' | 'json') => {
    setExportNote('');
    const problem = await exportStored(agentId, sessionId, format);
    if (!problem) return;
    if (format === 'json') return setExportNote(problem);
    // The store could not help (e.g. nothing stored yet): export what is on screen.
    const thread = useConversationsStore.getState().threads[sessionId];
    const text = conversationMarkdown(title, thread?.messages ?? [], stream, thread?.saltados ?? 0);
    download(exportFileName(title), 'text/markdown', text);
  };

  const copyLink = async () => {
    if (!share?.publicUrl) return;
    await navigator.clipboard.writeText(share.publicUrl).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };

  return (
    <header className="chat-header">
      <AgentBadge agentId={agentId} />
      <h2 className="chat-title">{showDirectionControls(title)}</h2>
      {models && models.options.length > 0 ? (
        <label className="model-picker">
          <span>Model</span>
          <select
            aria-label="Model"
            value={modelValue}
            onChange={(event) => {
              const model = event.target.value;
              void chooseModel(agentId, sessionId, model).then((problem) =>
                setModelNote(problem || 'The new model applies from the next reply.'),
              );
            }}
          >
            {models.options.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label || option.id}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <div className="chat-actions">
        <button
          type="button"
          onClick={() => {
            setNewTitle(title);
            setDialog('rename');
          }}
        >
          Rename
        </button>
        <button
          type="button"
          onClick={() => {
            void store.loadShare(agentId, sessionId);
            setDialog('share');
          }}
        >
          Share
        </button>
        <button type="button" onClick={() => useSchedulesStore.getState().openPanel(sessionId)}>
          Schedule
        </button>
        <button type="button" onClick={() => void exportAs('markdown')}>
          Export
        </button>
        <button type="button" onClick={() => void exportAs('json')} title="Every stored detail, as JSON">
          Export JSON
        </button>
        <button type="button" onClick={() => setDialog('archive')}>
          Archive
        </button>
        <CopyLinkButton agentId={agentId} sessionId={sessionId} label="Copy conversation link" />
      </div>
      {modelNote ? (
        <p className="model-note" role="status">
          {modelNote}
        </p>
      ) : null}
      {exportNote ? (
        <p className="model-note error-text" role="alert">
          {exportNote}
        </p>
      ) : null}
      {dialog === 'rename' ? (
        <ConfirmDialog
          title="Rename conversation"
          confirmLabel="Rename"
          onCancel={() => setDialog(null)}
          onConfirm={() => {
            const value = newTitle.trim();
            if (!value) return;
            void store.rename(agentId, sessionId, value).then((ok) => ok && setDialog(null));
          }}
        >
          <label>
            New name
            <input autoFocus value={newTitle} maxLength={200} onChange={(e) => setNewTitle(e.target.value)} />
          </label>
        </ConfirmDialog>
      ) : null}
      {dialog === 'archive' ? (
        <ConfirmDialog
          title="Archive this conversation?"
          confirmLabel="Archive"
          danger
          onCancel={() => setDialog(null)}
          onConfirm={() => {
            setDialog(null);
            useArchiveStore.getState().archive(agentId, sessionId);
          }}
        >
          <p>“{title}” will leave your list.</p>
        </ConfirmDialog>
      ) : null}
      {dialog === 'share' ? (
        <ConfirmDialog
          title="Share conversation"
          confirmLabel="Done"
          onCancel={() => setDialog(null)}
          onConfirm={() => setDialog(null)}
        >
          {share?.compartida && share.publicUrl ? (
            <>
              <p>Anyone with this link can read the conversation.</p>
              <div className="share-link">
                <input
                  readOnly
                  aria-label="Public link"
                  value={share.publicUrl}
                  onFocus={(e) => e.target.select()}
                />
                <button type="button" onClick={() => void copyLink()}>
                  {copied ? 'Copied' : 'Copy link'}
                </button>
              </div>
              <button
                type="button"
                className="danger"
                onClick={() => void store.setShared(agentId, sessionId, false)}
              >
                Stop sharing
              </button>
            </>
          ) : (
            <>
              <p>Create a public, read-only link to this conversation.</p>
              <button
                type="button"
                className="primary"
                onClick={() => void store.setShared(agentId, sessionId, true)}
              >
                Create public link
              </button>
            </>
          )}
        </ConfirmDialog>
      ) : null}
    </header>
  );
}
