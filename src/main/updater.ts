import type { AppUpdater } from 'electron-updater';
import type { UpdateState } from '../shared/bridge';
import type { UpdateSource } from '../core/host/platform/shell-hooks';
import {
  CHECK_INTERVAL_MS,
  initialUpdateState,
  nextUpdateState,
  type UpdateEvent,
} from '../core/host/platform/update-state';

type Updater = Pick<
  AppUpdater,
  | 'checkForUpdates'
  | 'quitAndInstall'
  | 'on'
  | 'autoDownload'
  | 'autoInstallOnAppQuit'
  | 'channel'
  | 'allowPrerelease'
>;

export interface UpdaterOptions {
  updater: Updater;
  /** Only an installed (packaged) app has the generic feed's app-update.yml. */
  isPackaged: boolean;
  channel: 'stable' | 'beta';
  log(line: string): void;
  now?: () => number;
  every?: (run: () => void, ms: number) => { unref?(): void };
}

export interface UpdateController extends UpdateSource {
  /** Checks now and then every few hours. */
  start(): void;
  setChannel(channel: 'stable' | 'beta'): void;
}

/**
 * electron-updater behind the update state machine: checks at start and every few hours, downloads in
 * the background, and installs only when the person presses "Restart to update" (the host first makes
 * sure no reply runs and no sync writes). A failed check is logged and kept for the About box, never
 * shown as an error. Signature checks stay on (electron-updater's defaults).
 */
export function createUpdateController(options: UpdaterOptions): UpdateController {
  const now = options.now ?? Date.now;
  const { updater } = options;
  let state: UpdateState = initialUpdateState;
  const listeners = new Set<(state: UpdateState) => void>();
  const move = (event: UpdateEvent): void => {
    state = nextUpdateState(state, event);
    for (const listener of listeners) listener(state);
  };
  const setChannel = (channel: 'stable' | 'beta'): void => {
    updater.channel = channel === 'beta' ? 'beta' : 'latest';
    updater.allowPrerelease = channel === 'beta';
  };

  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  setChannel(options.channel);
  updater.on('checking-for-update', () => move({ type: 'check-started' }));
  updater.on('update-available', (info) => move({ type: 'available', version: info.version }));
  updater.on('update-not-available', () => move({ type: 'not-available', at: now() }));
  updater.on('download-progress', (progress) => move({ type: 'progress', percent: progress.percent }));
  updater.on('update-downloaded', (info) => move({ type: 'downloaded', version: info.version, at: now() }));
  updater.on('error', (error) => {
    options.log(`updater: ${error.message}`);
    move({ type: 'failed', message: error.message, at: now() });
  });

  const check = (): void => {
    if (!options.isPackaged) return;
    updater.checkForUpdates().catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      options.log(`updater: check failed (${message})`);
      move({ type: 'failed', message, at: now() });
    });
  };

  return {
    current: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    install: () => updater.quitAndInstall(false, true),
    setChannel,
    start() {
      if (!options.isPackaged) {
        options.log('updater: not an installed app, so no update checks');
        return;
      }
      check();
      (options.every ?? setInterval)(check, CHECK_INTERVAL_MS).unref?.();
    },
  };
}
