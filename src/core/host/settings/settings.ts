import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AppSettings, SettingsMethods, UpdateCheck } from '../../../shared/bridge';
import { checkBody } from '../plumbing/argument-checks';
import { fail } from '../plumbing/call-results';
import { appVersion } from './app-version';
import { defaultSettings, readSettings, SettingsPatch, writeSettings } from './settings-file';

/** What a program adds to settings: its version and, in an installed desktop app, update checks. */
export interface SettingsHooks {
  version?: string;
  checkForUpdates?(): Promise<UpdateCheck>;
  /** Called with the saved settings after each change (the desktop shell applies its own). */
  onChange?(settings: AppSettings): void;
}

export interface SettingsArea {
  bridge: SettingsMethods;
  /** The settings as saved (other areas read the sync root and the like). */
  current(): AppSettings;
  load(): Promise<void>;
  /** Waits for the changes already asked for to be written (the host is closing). */
  flush(): Promise<void>;
}

/** The settings area: `<dataDir>/settings.json` (never a secret; mode 0600) and facts about the app. */
export function createSettingsArea(options: {
  dataDir: string;
  home?: string;
  hooks?: SettingsHooks;
}): SettingsArea {
  const filePath = join(options.dataDir, 'settings.json');
  const home = options.home ?? homedir();
  let settings: AppSettings | undefined;
  let saving: Promise<unknown> = Promise.resolve();
  const load = async () => {
    settings ??= await readSettings(filePath);
    return settings;
  };

  return {
    current: () => settings ?? defaultSettings,
    load: async () => void (await load()),
    flush: async () => void (await saving),
    bridge: {
      async getSettings() {
        return { ok: true, value: await load() };
      },

      async updateSettings(patch) {
        const checked = checkBody(SettingsPatch, patch);
        if (!checked.ok) return checked;
        const { syncRoot, ...rest } = checked.value;
        const expanded = syncRoot !== undefined && syncRoot !== null ? expandHome(syncRoot, home) : syncRoot;
        if (expanded && !expanded.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(expanded))
          return fail('invalid_argument', 'Give the sync folder as a full path, e.g. /home/you/AgentDesk.');
        // Changes go one after another, each on top of the one before, so two quick changes (two boxes
        // ticked in a row) both land and the file always holds the last change whole.
        const change = saving.then(async () => {
          const next: AppSettings = {
            ...(await load()),
            ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
            ...(expanded !== undefined ? { syncRoot: expanded } : {}),
          };
          await writeSettings(filePath, next);
          settings = next;
          return next;
        });
        saving = change.catch(() => undefined);
        let next: AppSettings;
        try {
          next = await change;
        } catch (error) {
          return fail('internal', `Settings could not be saved (${(error as Error).message}).`);
        }
        options.hooks?.onChange?.(next);
        return { ok: true, value: next };
      },

      async getAppInfo() {
        return {
          ok: true,
          value: {
            version: options.hooks?.version ?? appVersion(),
            dataDir: options.dataDir,
            defaultSyncRoot: join(home, 'AgentDesk'),
            canCheckForUpdates: !!options.hooks?.checkForUpdates,
          },
        };
      },

      async checkForUpdates() {
        const check = options.hooks?.checkForUpdates;
        if (!check) return fail('not_available', 'Updates are checked by the installed desktop app.');
        try {
          return { ok: true, value: await check() };
        } catch (error) {
          return {
            ok: true,
            value: { status: 'error', message: `The update check failed (${(error as Error).message}).` },
          };
        }
      },
    },
  };
}

/** A typed folder with `~` for the home folder; blank means "the default". */
function expandHome(typed: string | null, home: string): string | null {
  const path = typed?.trim();
  if (!path) return null;
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}
