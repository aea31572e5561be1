import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ConversationSummary } from '../../../shared/api';
import { useArchiveStore } from '../../stores/archive-store';
import { useConversationsStore } from '../../stores/conversations-store';
import { useUiStore } from '../../stores/ui-store';
import { showDirectionControls } from '../../model/bidi-controls';
import { exportStored } from '../../ui/export-download';
import { MenuButton, type MenuItem } from '../../ui/MenuButton';
import { conversationState, conversationStateWords } from './conversation-state';
import { showConversation } from './show-conversation';
import './conversations.css';

/**
 * One conversation in the sidebar, one line high: its title, a badge only when its last reply needs a look
 * (running, waiting for the person, failed, stopped), and its own actions behind "…", which shows on hover
 * and on focus (Tab from the row reaches it), and also opens on a right-click or the context-menu key
 * (Shift+F10).
 */
export function ConversationRow(props: {
  agentId: string;
  item: ConversationSummary;
  title: string;
  selected: boolean;
  waiting: boolean;
  when: string;
}) {
  const { agentId, item, title } = props;
  const [renaming, setRenaming] = useState(false);
  const [problem, setProblem] = useState('');
  const row = useRef<HTMLLIElement>(null);
  const rowButton = useRef<HTMLButtonElement>(null);
  // Back on the row once the field is gone, as after a dialog.
  const refocus = useRef(false);
  useEffect(() => {
    if (renaming || !refocus.current) return;
    refocus.current = false;
    rowButton.current?.focus();
  }, [renaming]);
  const titleId = useId();
  const state = conversationState(item.lastTurn?.state, props.waiting);
  const badge = state && state !== 'done' ? state : undefined;

  const open = () => showConversation(() => useConversationsStore.getState().select(item.id));
  const openMenu = () => row.current?.querySelector<HTMLButtonElement>('[aria-haspopup="menu"]')?.click();
  const items: MenuItem[] = [
    { id: 'rename', label: 'Rename', run: () => setRenaming(true) },
    {
      id: 'share',
      label: 'Share…',
      // The dialog is the chat header's: the conversation opens and its header shows it.
      run: () => {
        open();
        useUiStore.getState().askShare(item.id);
      },
    },
    {
      id: 'export',
      label: 'Export as Markdown',
      run: () => void exportStored(agentId, item.id, 'markdown').then(setProblem),
    },
    // No question first: Undo follows for a few seconds.
    {
      id: 'archive',
      label: 'Archive',
      danger: true,
      run: () => useArchiveStore.getState().archive(agentId, item.id),
    },
  ];

  const onRowKey = (event: KeyboardEvent) => {
    if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
      event.preventDefault();
      openMenu();
    }
  };

  return (
    <li
      ref={row}
      className={`conversation-row ${props.selected ? 'selected' : ''}`}
      onContextMenu={(event) => {
        if (renaming) return;
        event.preventDefault();
        openMenu();
      }}
    >
      {renaming ? (
        <RenameField
          agentId={agentId}
          sessionId={item.id}
          title={title}
          onDone={(saved, byKey) => {
            // Enter or Escape: back on the row. Left by a click elsewhere: the focus stays there.
            refocus.current = byKey;
            setRenaming(false);
            if (saved !== undefined) setProblem(saved);
          }}
        />
      ) : (
        <button
          ref={rowButton}
          type="button"
          className={`conversation ${props.selected ? 'selected' : ''}`}
          aria-current={props.selected ? 'true' : undefined}
          aria-keyshortcuts="Shift+F10"
          title={props.when ? `${title} · ${props.when}` : title}
          onClick={open}
          onKeyDown={onRowKey}
        >
          <span className="conversation-title" id={titleId}>
            {showDirectionControls(title)}
          </span>
          {badge ? (
            <span
              className={`badge badge-${badge}`}
              aria-label={`Last reply: ${conversationStateWords[badge]}`}
            >
              {conversationStateWords[badge]}
            </span>
          ) : null}
        </button>
      )}
      <MenuButton label="…" title="Conversation options" describedBy={titleId} items={items} floating />
      {problem ? (
        <p className="error-text small-text row-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </li>
  );
}

/**
 * The title in place, as in Claude and ChatGPT: Enter (or leaving the field) saves through the spec's
 * PATCH, Escape keeps the old one. `onDone` gets the problem in words, '' when saved, undefined when kept,
 * and whether a key ended it.
 */
function RenameField(props: {
  agentId: string;
  sessionId: string;
  title: string;
  onDone(problem: string | undefined, byKey: boolean): void;
}) {
  const [value, setValue] = useState(props.title);
  const done = useRef(false);
  const finish = async (save: boolean, byKey: boolean) => {
    if (done.current) return;
    done.current = true;
    const clean = value.trim();
    if (!save || !clean || clean === props.title) return props.onDone(undefined, byKey);
    const ok = await useConversationsStore.getState().rename(props.agentId, props.sessionId, clean);
    const problem = ok ? '' : useConversationsStore.getState().notice || 'The name could not be saved.';
    props.onDone(problem, byKey);
  };
  return (
    <input
      className="conversation-rename"
      aria-label="New name for the conversation"
      autoFocus
      value={value}
      maxLength={200}
      onFocus={(event) => event.target.select()}
      onChange={(event) => setValue(event.target.value)}
      onBlur={() => void finish(true, false)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') void finish(true, true);
        else if (event.key === 'Escape') void finish(false, true);
        else return;
        event.preventDefault();
        event.stopPropagation();
      }}
    />
  );
}
