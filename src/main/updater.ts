import type { AppUpdater } from 'electron-updater';

export interface UpdaterOptions {
  updater: Pick<AppUpdater, 'checkForUpdatesAndNotify' | 'autoDownload' | 'logger'>;
  /** Only an installed (packaged) app has the generic feed's app-update.yml. */
  isPackaged: boolean;
  log(line: string): void;
}

/**
 * Checks the generic update feed named in electron-builder.yml once at start.
 * Signature checks stay on (electron-updater's defaults); a failed check is
 * only logged, never shown as an error.
 */
export async function checkForUpdates(options: UpdaterOptions): Promise<void> {
  if (!options.isPackaged) return;
  options.updater.autoDownload = true;
  options.updater.logger = {
    info: (message: unknown) => options.log(`updater: ${String(message)}`),
    warn: (message: unknown) => options.log(`updater: ${String(message)}`),
    error: (message: unknown) => options.log(`updater: ${String(message)}`),
  };
  try {
    await options.updater.checkForUpdatesAndNotify();
  } catch (error) {
    options.log(`updater: check failed (${error instanceof Error ? error.message : String(error)})`);
  }
}
