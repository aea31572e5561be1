import { useState } from 'react';
import { useConversationsStore } from '../../stores/conversations-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { onlyThisComputer } from '../../model/link-reach';

/** Creates, shows, copies and stops the conversation's public read-only link. */
export function ShareDialog(props: { agentId: string; sessionId: string; onClose(): void }) {
  const { agentId, sessionId, onClose } = props;
  const share = useConversationsStore((s) => s.shares[sessionId]);
  const store = useConversationsStore.getState();
  const [copied, setCopied] = useState(false);

  const copyLink = async () => {
    if (!share?.publicUrl) return;
    await navigator.clipboard.writeText(share.publicUrl).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };

  return (
    <ConfirmDialog title="Share conversation" confirmLabel="Done" onCancel={onClose} onConfirm={onClose}>
      {share?.shared && share.publicUrl ? (
        <>
          {onlyThisComputer(share.publicUrl) ? (
            <p>
              Only this computer can open this link: it points to this computer&apos;s own address. To let
              others read the conversation, use AgentDesk with a server that has a public address.
            </p>
          ) : (
            <p>Anyone with this link can read the conversation.</p>
          )}
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
  );
}
