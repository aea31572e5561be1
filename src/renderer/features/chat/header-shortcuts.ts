/** The facts of a key event a shortcut depends on. */
type KeyFacts = Pick<KeyboardEvent, 'key' | 'metaKey' | 'ctrlKey' | 'altKey' | 'shiftKey'>;

/** The conversation actions of the header's "…" menu that have a key of their own. */
export type HeaderAction = 'rename' | 'export-markdown' | 'copy-link' | 'archive';

/** True on a Mac keyboard, where Mod is Cmd. */
export const macKeyboard = (): boolean => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** What the menu shows beside each action, with Cmd on macOS and Ctrl elsewhere. */
export function headerShortcutLabel(action: HeaderAction, isMac: boolean): string {
  const mod = isMac ? 'Cmd' : 'Ctrl';
  const labels: Record<HeaderAction, string> = {
    rename: 'F2',
    'export-markdown': `${mod}+Shift+S`,
    'copy-link': `${mod}+Shift+L`,
    archive: `${mod}+Shift+Backspace`,
  };
  return labels[action];
}

/** Pure: the key event's facts → the header action, if any. None of these keys is one a browser keeps. */
export function matchHeaderShortcut(event: KeyFacts, isMac: boolean): HeaderAction | undefined {
  const mod = isMac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  const plain = !event.metaKey && !event.ctrlKey && !event.altKey && !event.shiftKey;
  if (event.key === 'F2' && plain) return 'rename';
  if (!mod || !event.shiftKey || event.altKey) return undefined;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (key === 's') return 'export-markdown';
  if (key === 'l') return 'copy-link';
  if (key === 'Backspace') return 'archive';
  return undefined;
}
