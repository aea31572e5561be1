import { useState } from 'react';
import type { Agent } from '../../../shared/api';
import { useAgentsStore } from '../../stores/agents-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorLine } from '../../ui/ErrorLine';

/** A new name for an agent, through the spec's PATCH `name` (every server has it). */
export function RenameAgentDialog(props: { agent: Agent; onClose(): void }) {
  const [name, setName] = useState(props.agent.name);
  const [problem, setProblem] = useState('');
  const rename = async () => {
    const clean = name.trim();
    if (!clean) return setProblem('Give the agent a name.');
    const failed = await useAgentsStore.getState().renameAgent(props.agent.id, clean);
    if (failed) return setProblem(failed);
    props.onClose();
  };
  return (
    <ConfirmDialog
      title="Rename agent"
      confirmLabel="Rename"
      onCancel={props.onClose}
      onConfirm={() => void rename()}
    >
      <label>
        New name
        <input
          autoFocus
          value={name}
          maxLength={64}
          onChange={(event) => {
            setName(event.target.value);
            setProblem('');
          }}
        />
      </label>
      <ErrorLine text={problem} />
    </ConfirmDialog>
  );
}

/** Deleting an agent says what goes with it before anything is deleted. */
export function DeleteAgentDialog(props: { agent: Agent; onClose(deleted?: boolean): void }) {
  const [problem, setProblem] = useState('');
  const remove = async () => {
    const failed = await useAgentsStore.getState().deleteAgent(props.agent.id);
    if (failed) return setProblem(failed);
    props.onClose(true);
  };
  return (
    <ConfirmDialog
      title={`Delete ${props.agent.name}?`}
      confirmLabel="Delete agent"
      danger
      onCancel={() => props.onClose()}
      onConfirm={() => void remove()}
    >
      <p className="dialog-lead">This deletes, for good:</p>
      <ul className="lost-list">
        <li>all of its conversations and scheduled messages,</li>
        <li>the files in its workspace, its skills and its instructions,</li>
        <li>its settings and the access keys made for it.</li>
      </ul>
      <p className="muted small-text">
        Your other agents and your file library are not touched. A synced folder on this computer keeps its
        files.
      </p>
      <ErrorLine text={problem} />
    </ConfirmDialog>
  );
}
