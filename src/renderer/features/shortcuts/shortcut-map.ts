/**
 * Keyboard shortcuts, with Cmd on macOS and Ctrl elsewhere. Pure: takes the
 * key event's facts, returns the action. Each action has a second binding
 * that browsers do not reserve (browser mode cannot take Ctrl+N).
 */
export type ShortcutAction =
  | 'new-conversation'
  | 'search'
  | 'next-conversation'
  | 'previous-conversation'
  | 'focus-composer'
  | 'open-agent-config'
  | 'toggle-sidebar';

export interface KeyFacts {
  key: string;
  metaKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

export const shortcutHelp: Record<ShortcutAction, string[]> = {
  'new-conversation': ['Mod+N', 'Mod+Shift+O'],
  search: ['Mod+K', 'Mod+F'],
  'next-conversation': ['Mod+]', 'Alt+ArrowDown'],
  'previous-conversation': ['Mod+[', 'Alt+ArrowUp'],
  'focus-composer': ['Mod+/', 'Shift+Escape'],
  'open-agent-config': ['Mod+,', 'Mod+Shift+E'],
  'toggle-sidebar': ['Mod+\\', 'Mod+B'],
};

export function matchShortcut(event: KeyFacts, isMac: boolean): ShortcutAction | undefined {
  const mod = isMac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (mod && !event.altKey) {
    if (key === 'n' && !event.shiftKey) return 'new-conversation';
    if (key === 'o' && event.shiftKey) return 'new-conversation';
    if ((key === 'k' || key === 'f') && !event.shiftKey) return 'search';
    if (key === ']' && !event.shiftKey) return 'next-conversation';
    if (key === '[' && !event.shiftKey) return 'previous-conversation';
    if (key === '/') return 'focus-composer';
    if (key === ',' && !event.shiftKey) return 'open-agent-config';
    if (key === 'e' && event.shiftKey) return 'open-agent-config';
    // Mod+\ as in VS Code; Mod+B where a layout hides the backslash (the message box has no bold to lose).
    if ((key === '\\' || key === 'b') && !event.shiftKey) return 'toggle-sidebar';
  }
  if (!event.metaKey && !event.ctrlKey && event.altKey && !event.shiftKey) {
    if (key === 'ArrowDown') return 'next-conversation';
    if (key === 'ArrowUp') return 'previous-conversation';
  }
  if (key === 'Escape' && event.shiftKey && !event.altKey && !event.metaKey && !event.ctrlKey)
    return 'focus-composer';
  return undefined;
}
