import type { DeepLinkPlace, ShellCommand, UpdateState } from '../../../shared/bridge';

/** Where update news comes from: electron-updater in the installed app, a fake in tests. */
export interface UpdateSource {
  current(): UpdateState;
  subscribe(listener: (state: UpdateState) => void): () => void;
  /** Quits, installs the downloaded update and starts again. */
  install(): void;
}

/**
 * What the desktop shell adds to the platform area. Browser mode gives none of it (no tray, updater,
 * global shortcut or log file), and the area says so; tests may give `updates` alone.
 */
export interface ShellHooks {
  tray?: boolean;
  globalShortcut?: boolean;
  openAtLogin?: boolean;
  logFile?: string;
  updates?: UpdateSource;
  showLogs?(): Promise<void>;
  /** Closes the quick chat window, then shows the place (if any) in the main window. */
  closeQuick?(open?: DeepLinkPlace): void;
  onShellCommand?(listener: (command: ShellCommand) => void): () => void;
}
