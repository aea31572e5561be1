import { useState } from 'react';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorLine } from '../../ui/ErrorLine';

/**
 * Deleting the account behind a typed confirmation. A 409 blocker is shown by the server's `detalle`;
 * nothing is forgotten here unless the server said the account is gone.
 */
export function DeleteAccountDialog(props: { phrase: string; onClose(done: boolean): void }) {
  const { phrase } = props;
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (typed.trim() !== phrase) return setProblem(`Type ${phrase} exactly to confirm.`);
    setBusy(true);
    setProblem('');
    const result = await desk().deleteAccount();
    setBusy(false);
    if (!result.ok) return setProblem(errorWords(result.error));
    props.onClose(true);
  };

  return (
    <ConfirmDialog
      title="Delete your account?"
      confirmLabel={busy ? 'Deleting…' : 'Delete account'}
      danger
      onCancel={() => props.onClose(false)}
      onConfirm={() => void confirm()}
    >
      <p>Your agents, conversations and files on this server will be deleted for good.</p>
      <label>
        Type <strong>{phrase}</strong> to confirm
        <input autoFocus value={typed} onChange={(e) => setTyped(e.target.value)} aria-label="Confirmation" />
      </label>
      <ErrorLine text={problem} />
    </ConfirmDialog>
  );
}
