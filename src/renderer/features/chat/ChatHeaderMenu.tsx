import { useEffect, useMemo, useState } from 'react';
import { useSchedulesStore } from '../../stores/schedules-store';
import { copyDeepLink } from '../../ui/CopyLinkButton';
import { MenuButton, type MenuItem } from '../../ui/MenuButton';
import { headerShortcutLabel, macKeyboard, matchHeaderShortcut, type HeaderAction } from './header-shortcuts';

export interface HeaderMenuActions {
  rename(): void;
  exportAs(format: 'markdown' | 'json'): void;
  archive(): void;
}

/**
 * The conversation's less frequent actions behind "…": rename, schedule, export, copy its link, archive,
 * each with its shortcut, which also works while the menu is closed.
 */
export function ChatHeaderMenu(props: { agentId: string; sessionId: string; actions: HeaderMenuActions }) {
  const { agentId, sessionId, actions } = props;
  const [note, setNote] = useState('');
  const isMac = useMemo(macKeyboard, []);

  const run: Record<HeaderAction, () => void> = {
    rename: actions.rename,
    'export-markdown': () => actions.exportAs('markdown'),
    'copy-link': () => void copyDeepLink({ agentId, sessionId }).then(setNote),
    archive: actions.archive,
  };
  const keyed = (id: HeaderAction, label: string, danger = false): MenuItem => ({
    id,
    label,
    keys: headerShortcutLabel(id, isMac),
    danger,
    run: run[id],
  });
  const items: MenuItem[] = [
    keyed('rename', 'Rename…'),
    {
      id: 'schedule',
      label: 'Schedule a message…',
      run: () => useSchedulesStore.getState().openPanel(sessionId),
    },
    keyed('export-markdown', 'Export as Markdown'),
    { id: 'export-json', label: 'Export as JSON (every detail)', run: () => actions.exportAs('json') },
    keyed('copy-link', 'Copy conversation link'),
    keyed('archive', 'Archive', true),
  ];

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = matchHeaderShortcut(event, isMac);
      if (!action || document.querySelector('[role="dialog"]')) return;
      event.preventDefault();
      run[action]();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  useEffect(() => {
    if (!note) return;
    const timer = setTimeout(() => setNote(''), 4000);
    return () => clearTimeout(timer);
  }, [note]);

  return (
    <>
      <MenuButton label="…" title="More conversation actions" items={items} />
      {note ? (
        <p className="header-note" role="status">
          {note}
        </p>
      ) : null}
    </>
  );
}
