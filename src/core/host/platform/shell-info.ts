import type { ShellInfo } from '../../../shared/bridge';
import type { ShellHooks } from './shell-hooks';

/** What this shell offers, and in plain words what it does not. */
export function shellInfo(shell: ShellHooks): ShellInfo {
  const missing = [
    !shell.tray && 'tray icon',
    !shell.globalShortcut && 'global shortcut',
    !shell.openAtLogin && 'open at login',
    !shell.updates && 'automatic updates',
  ].filter((item): item is string => !!item);
  return {
    logFile: shell.logFile ?? null,
    logNote: shell.logFile
      ? 'The app and its window log here, with passwords and sign-in keys removed.'
      : 'This app logs to the terminal that started it, with passwords and sign-in keys removed.',
    tray: !!shell.tray,
    updates: !!shell.updates,
    globalShortcut: !!shell.globalShortcut,
    openAtLogin: !!shell.openAtLogin,
    limits: missing.length
      ? `This window runs in browser mode, which has no ${joinWords(missing)}: those come with the desktop app.`
      : null,
  };
}

function joinWords(words: string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}
