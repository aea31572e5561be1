import { create } from 'zustand';
import type { AppInfo, AppSettings } from '../../shared/bridge';
import { desk } from '../desk';
import { errorWords } from '../error-words';
import { applyTheme } from '../ui/apply-theme';
import { DEFAULT_GLOBAL_SHORTCUT, DEFAULT_QUICK_CHAT_SHORTCUT } from '../../shared/bridge/accelerator';

/** Until the host answers: follow the OS, notify, ask before acting. */
export const defaultSettings: AppSettings = {
  theme: 'system',
  notifications: true,
  permissionMode: 'preguntar',
  syncRoot: null,
  closeToTray: false,
  globalShortcut: DEFAULT_GLOBAL_SHORTCUT,
  quickChatShortcut: DEFAULT_QUICK_CHAT_SHORTCUT,
  updateChannel: 'stable',
  openAtLogin: false,
};

interface SettingsStore {
  settings: AppSettings;
  info: AppInfo | null;
  loaded: boolean;
  error: string;
  load(): Promise<void>;
  /** Saves a change in the app's data folder; the screen shows it at once. */
  update(patch: Partial<AppSettings>): Promise<void>;
}

// What the screen shows is the host's last answer with every change still on its way laid over it, so
// an answer to an earlier change (or a slow first load) never undoes a later click. Changes reach the
// host one after another, in the order they were made.
let confirmed: AppSettings = defaultSettings;
const pending: Partial<AppSettings>[] = [];
let queue: Promise<unknown> = Promise.resolve();

const shown = (): AppSettings => Object.assign({ ...confirmed }, ...pending) as AppSettings;

export const useSettingsStore = create<SettingsStore>((set) => {
  const show = (extra: Partial<SettingsStore> = {}) => {
    const settings = shown();
    applyTheme(settings.theme);
    set({ settings, ...extra });
  };
  return {
    settings: defaultSettings,
    info: null,
    loaded: false,
    error: '',
    async load() {
      const [settings, info] = await Promise.all([desk().getSettings(), desk().getAppInfo()]);
      if (settings.ok) {
        confirmed = settings.value;
        show({ loaded: true });
      } else set({ error: errorWords(settings.error) });
      if (info.ok) set({ info: info.value });
    },
    update(patch) {
      pending.push(patch);
      show({ error: '' });
      const sent = queue.then(async () => {
        const result = await desk()
          .updateSettings(patch)
          .finally(() => pending.splice(pending.indexOf(patch), 1));
        if (result.ok) confirmed = result.value;
        // A refused change falls away; the changes after it stay shown.
        show(result.ok ? {} : { error: errorWords(result.error) });
      });
      queue = sent.catch(() => undefined);
      return sent;
    },
  };
});
