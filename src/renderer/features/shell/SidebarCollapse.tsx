import { useEffect, useRef, type RefObject } from 'react';
import { useSidebarStore } from '../../stores/sidebar-store';
import { useSearchStore } from '../../stores/search-store';

/** The key that folds or unfolds the sidebar, as shown beside its buttons. */
export const sidebarKeys = (isMac: boolean): string => `${isMac ? 'Cmd' : 'Ctrl'}+\\`;

/** Reads whether the sidebar was folded last time, once. */
export function useSidebarMemory(): boolean {
  const collapsed = useSidebarStore((s) => s.collapsed);
  useEffect(() => void useSidebarStore.getState().load(), []);
  return collapsed;
}

/** The folded sidebar: a narrow rail with the way back, a new conversation and search. */
export function SidebarRail(props: { isMac: boolean; onNewConversation?: () => void }) {
  return (
    <div className="sidebar-rail">
      <SidebarToggle isMac={props.isMac} hide={false} />
      {props.onNewConversation ? (
        <button
          type="button"
          className="icon"
          aria-label="Start a new conversation"
          title="New conversation"
          onClick={props.onNewConversation}
        >
          <Icon d="M8 2v12M2 8h12" />
        </button>
      ) : null}
      <button
        type="button"
        className="icon"
        aria-label="Search all conversations"
        title={`Search (${props.isMac ? 'Cmd' : 'Ctrl'}+K)`}
        onClick={() => useSearchStore.getState().show()}
      >
        <Icon d="M10.5 10.5 14 14M11.5 6.5a5 5 0 1 1-10 0 5 5 0 0 1 10 0Z" />
      </button>
    </div>
  );
}

/**
 * "Hide sidebar" (beside the app's name) or the rail's "Show sidebar". When the focus was in what folded
 * away (the button itself, a row), it goes to "Show sidebar", and back to "Hide sidebar" on unfolding.
 */
export function SidebarToggle(props: { isMac: boolean; hide: boolean }) {
  const { hide } = props;
  const collapsed = useSidebarStore((s) => s.collapsed);
  const button = useRef<HTMLButtonElement>(null);
  useFocusKept(collapsed, !hide, button);
  const label = hide ? 'Hide sidebar' : 'Show sidebar';
  return (
    <button
      ref={button}
      type="button"
      className="icon sidebar-toggle"
      aria-label={label}
      aria-keyshortcuts="Control+Backslash Meta+Backslash Control+B Meta+B"
      title={`${label} (${sidebarKeys(props.isMac)})`}
      onClick={() => useSidebarStore.getState().setCollapsed(hide)}
    >
      <Icon d={hide ? 'M8 3 3 8l5 5M13 3 8 8l5 5' : 'M3 3l5 5-5 5M8 3l5 5-5 5'} />
    </button>
  );
}

/** A 16 px line drawing in the text's colour (fonts do not all have the arrows and the lens). */
function Icon(props: { d: string }) {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={props.d} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

/** When `collapsed` becomes `when` and the focus was lost with what was hidden, it goes to `target`. */
function useFocusKept(collapsed: boolean, when: boolean, target: RefObject<HTMLButtonElement | null>) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (collapsed !== when) return;
    const active = document.activeElement as HTMLElement | null;
    const lost = !active || active === document.body || active.offsetParent === null;
    if (lost) target.current?.focus();
  }, [collapsed, when, target]);
}
