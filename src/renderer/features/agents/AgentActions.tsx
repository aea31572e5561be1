import { useState } from 'react';
import { useAgentsStore } from '../../stores/agents-store';
import { useServerOffers } from '../../ui/use-server-offers';
import { DeleteAgentDialog, RenameAgentDialog } from './AgentDialogs';
import { NewAgentDialog } from './NewAgentDialog';

/** "New agent", where the server makes agents (our extension); a spec-only server never shows it. */
export function NewAgentButton() {
  const offered = useServerOffers('createAgent');
  const [open, setOpen] = useState(false);
  if (!offered) return null;
  return (
    <>
      <button type="button" className="small" onClick={() => setOpen(true)}>
        + New agent
      </button>
      {open ? <NewAgentDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/**
 * Rename (the spec's PATCH `name`, so every server) and Delete (our extension, and never the only agent) for
 * the selected agent.
 */
export function AgentActions(props: { onDeleted(): void }) {
  const agents = useAgentsStore((s) => s.agents);
  const selected = useAgentsStore((s) => s.agents.find((a) => a.id === s.selectedAgentId));
  const canDelete = useServerOffers('deleteAgent') && agents.length > 1;
  const [dialog, setDialog] = useState<'rename' | 'delete' | null>(null);
  if (!selected) return null;
  return (
    <div className="agent-actions">
      <button
        type="button"
        className="link small-text"
        aria-label={`Rename ${selected.name}`}
        onClick={() => setDialog('rename')}
      >
        Rename
      </button>
      {canDelete ? (
        <button
          type="button"
          className="link small-text danger-link"
          aria-label={`Delete ${selected.name}`}
          onClick={() => setDialog('delete')}
        >
          Delete
        </button>
      ) : null}
      {dialog === 'rename' ? <RenameAgentDialog agent={selected} onClose={() => setDialog(null)} /> : null}
      {dialog === 'delete' ? (
        <DeleteAgentDialog
          agent={selected}
          onClose={(deleted) => {
            setDialog(null);
            if (deleted) props.onDeleted();
          }}
        />
      ) : null}
    </div>
  );
}
