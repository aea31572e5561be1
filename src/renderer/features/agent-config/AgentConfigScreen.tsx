import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import type { AgentConfiguration } from '../../../shared/api';
import { useAgentConfigStore, type AgentConfigSection } from '../../stores/agent-config-store';
import { useAgentsStore } from '../../stores/agents-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { BundleSection } from './BundleSection';
import { ChannelsSection } from './ChannelsSection';
import { EngineSection } from './EngineSection';
import { FilesSection } from './FilesSection';
import { IdentitySection } from './IdentitySection';
import { McpSection } from './McpSection';
import { PermissionsSection } from './PermissionsSection';
import { NumbersSection } from './NumbersSection';
import { RestartSection } from './RestartSection';
import { SaveOutcome } from './SaveOutcome';
import { SkillsSection } from './SkillsSection';
import { ToolsSection } from './ToolsSection';
import { TryPanel } from './TryPanel';
import { engineWords } from '../../model/agent-words';
import { sectionTitles } from './agent-config-words';
import './agent-config.css';
import './agent-config-parts.css';
import '../../ui/studio-list.css';

/** Sections that need the agent's own machine. */
const machineOnly: readonly AgentConfigSection[] = ['mcp', 'files', 'restart'];
const order = Object.keys(sectionTitles) as AgentConfigSection[];

/** The agent studio: one section per topic of the agent's configuration, with the try panel beside it. */
export function AgentConfigScreen(props: { agentId: string }) {
  const { agentId } = props;
  const config = useAgentConfigStore((s) => s.config);
  const status = useAgentConfigStore((s) => s.status);
  const error = useAgentConfigStore((s) => s.error);
  const section = useAgentConfigStore((s) => s.section);
  const noMachine = useAgentsStore((s) => s.noMachine[agentId]);
  const pendingLeave = useAgentConfigStore((s) => s.pendingLeave);
  const tryOpen = useAgentConfigStore((s) => s.tryOpen);
  const outcome = useAgentConfigStore((s) => s.outcome);
  const nav = useRef<HTMLUListElement>(null);

  // Closing the window or reloading with unsaved edits asks first.
  useEffect(() => {
    const guard = (event: BeforeUnloadEvent) => {
      if (Object.values(useAgentConfigStore.getState().dirty).some(Boolean)) event.preventDefault();
    };
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, []);

  const hidden = noMachine !== undefined ? machineOnly : [];
  const shown = order.filter((s) => !hidden.includes(s));
  const active = shown.includes(section) ? section : 'identity';
  const go = (next: AgentConfigSection) =>
    useAgentConfigStore.getState().requestLeave(() => useAgentConfigStore.getState().goTo(next));

  // Arrow keys move between sections, like a list of tabs.
  const onNavKey = (event: KeyboardEvent) => {
    const by = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (!by) return;
    event.preventDefault();
    const buttons = [...(nav.current?.querySelectorAll('button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    buttons[(at + by + buttons.length) % buttons.length]?.focus();
  };

  return (
    <div className={`studio ${tryOpen ? 'with-try' : ''}`}>
      <header className="studio-header">
        <div>
          <p className="muted small-text">Agent studio</p>
          <h1>{config?.name ?? 'Agent'}</h1>
        </div>
        <div className="studio-header-actions">
          <button
            type="button"
            aria-pressed={tryOpen}
            onClick={() => useAgentConfigStore.getState().toggleTry()}
          >
            {tryOpen ? 'Hide try panel' : 'Try it'}
          </button>
          <button
            type="button"
            onClick={() =>
              useAgentConfigStore.getState().requestLeave(() => useAgentConfigStore.getState().close())
            }
          >
            Back to chat
          </button>
        </div>
      </header>
      <nav className="studio-nav" aria-label="Studio sections">
        <ul ref={nav} onKeyDown={onNavKey}>
          {shown.map((s) => (
            <li key={s}>
              <button type="button" aria-current={s === active ? 'page' : undefined} onClick={() => go(s)}>
                {sectionTitles[s]}
              </button>
            </li>
          ))}
        </ul>
        {noMachine !== undefined ? (
          <p className="studio-help studio-hidden-note">
            Not shown: {machineOnly.map((s) => sectionTitles[s]).join(', ')}.{' '}
            {engineWords(config ?? undefined, noMachine || config?.engine || '').name} has no workspace of its
            own.
          </p>
        ) : null}
      </nav>
      <div className="studio-body">
        {status === 'loading' && !config ? <p className="muted">Loading the agent…</p> : null}
        {status === 'error' ? (
          <p className="error-text" role="alert">
            {error}{' '}
            <button type="button" className="link" onClick={() => void useAgentConfigStore.getState().load()}>
              Try again
            </button>
          </p>
        ) : null}
        {/* A failure that hid its own section (409 agente_no_acp) is still said. */}
        {outcome && hidden.includes(outcome.section) ? <SaveOutcome section={outcome.section} /> : null}
        {config ? renderSection(active, agentId, config) : null}
      </div>
      {tryOpen ? <TryPanel agentId={agentId} /> : null}
      {pendingLeave ? (
        <ConfirmDialog
          title="Discard unsaved changes?"
          confirmLabel="Discard changes"
          danger
          onConfirm={() => useAgentConfigStore.getState().confirmLeave()}
          onCancel={() => useAgentConfigStore.getState().cancelLeave()}
        >
          <p>You changed this section without saving. Leaving now loses those changes.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

function renderSection(section: AgentConfigSection, agentId: string, config: AgentConfiguration): ReactNode {
  const key = `${agentId}:${section}`;
  switch (section) {
    case 'identity':
      return <IdentitySection key={key} config={config} />;
    case 'engine':
      return <EngineSection key={key} config={config} />;
    case 'channels':
      return <ChannelsSection key={key} config={config} />;
    case 'tools':
      return <ToolsSection key={key} agentId={agentId} config={config} />;
    case 'permissions':
      return <PermissionsSection key={key} agentId={agentId} />;
    case 'mcp':
      return <McpSection key={key} agentId={agentId} />;
    case 'skills':
      return <SkillsSection key={key} agentId={agentId} />;
    case 'files':
      return <FilesSection key={key} agentId={agentId} />;
    case 'restart':
      return <RestartSection key={key} config={config} />;
    case 'bundle':
      return <BundleSection key={key} agentId={agentId} config={config} />;
    case 'numbers':
      return <NumbersSection key={key} agentId={agentId} />;
  }
}
