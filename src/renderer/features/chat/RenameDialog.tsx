import { useState } from 'react';
import { useConversationsStore } from '../../stores/conversations-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';

/** A new name for the conversation; the dialog stays open when the server refuses it. */
export function RenameDialog(props: { agentId: string; sessionId: string; title: string; onClose(): void }) {
  const { agentId, sessionId, onClose } = props;
  const [newTitle, setNewTitle] = useState(props.title);
  return (
    <ConfirmDialog
      title="Rename conversation"
      confirmLabel="Rename"
      onCancel={onClose}
      onConfirm={() => {
        const value = newTitle.trim();
        if (!value) return;
        void useConversationsStore
          .getState()
          .rename(agentId, sessionId, value)
          .then((ok) => ok && onClose());
      }}
    >
      <label>
        New name
        <input autoFocus value={newTitle} maxLength={200} onChange={(e) => setNewTitle(e.target.value)} />
      </label>
    </ConfirmDialog>
  );
}
