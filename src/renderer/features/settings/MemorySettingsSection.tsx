import { useEffect, useState } from 'react';
import type { MemoryInfo } from '../../../shared/bridge';
import { desk } from '../../desk';
import { useMemoryNoticeStore } from '../../stores/memory-notice-store';
import { errorWords } from '../../error-words';
import { ConfirmDialog } from '../../ui/ConfirmDialog';

/**
 * Privacy and data: where the chat memory (the local transcript store, docs/memory.md) is kept,
 * how much it holds, and a button that clears it through the bridge's `clearMemory`.
 */
export function MemorySettingsSection() {
  const [info, setInfo] = useState<MemoryInfo | null>(null);
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState('');
  // Live: a full disk is said while it lasts and goes once a write succeeds (memory-notice-store.ts).
  const diskFull = useMemoryNoticeStore((s) => s.diskFull);
  useEffect(() => useMemoryNoticeStore.getState().watch(), []);
  useEffect(() => {
    void desk()
      .getMemoryInfo()
      .then((result) => result.ok && setInfo(result.value));
  }, []);

  const clear = async () => {
    setAsking(false);
    setNote('Clearing…');
    const result = await desk().clearMemory();
    if (!result.ok) return setNote(errorWords(result.error));
    setInfo(result.value);
    setNote('Chat memory cleared on this computer.');
  };

  return (
    <section className="screen-section" aria-label="Chat memory">
      <h4>Chat memory</h4>
      <p className="muted small-text">
        So conversations reopen with their thoughts, tool calls and usage, and search finds anything said,
        AgentDesk keeps a copy of what it saw on this computer
        {info
          ? `: ${info.conversations} conversations, ${info.messages} messages, in ${info.path ?? 'this account’s data folder'}.`
          : '.'}
      </p>
      {info?.setAside ? <p role="status">{info.setAside}</p> : null}
      {diskFull ? (
        <p className="error-text" role="status">
          {diskFull}
        </p>
      ) : null}
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        Clear chat memory on this computer
      </button>
      {note ? <p role="status">{note}</p> : null}
      {asking ? (
        <ConfirmDialog
          title="Clear chat memory on this computer?"
          confirmLabel="Clear chat memory"
          danger
          onConfirm={() => void clear()}
          onCancel={() => setAsking(false)}
        >
          <p>
            This removes from this computer the copy of your conversations: their text, the thoughts, tool
            calls, permission answers and usage of each reply, the names and small pictures of attachments,
            and the search index. Search will not find them until they are downloaded again.
          </p>
          <p>
            What stays: every conversation on the server, with its messages. Open one and its text comes back;
            the detail of past replies (thoughts, tool calls) does not. Your account, settings and files are
            not touched.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
