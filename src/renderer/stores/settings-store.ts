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

export const useSettingsStore = create<SettingsStore>((set, get) => ({
  settings: defaultSettings,
  info: null,
  loaded: false,
  error: '',
  async load() {
    const [settings, info] = await Promise.all([desk().getSettings(), desk().getAppInfo()]);
    if (settings.ok) {
      applyTheme(settings.value.theme);
      set({ settings: settings.value, loaded: true });
    } else set({ error: errorWords(settings.error) });
    if (info.ok) set({ info: info.value });
  },
  async update(patch) {
    const before = get().settings;
    const next = { ...before, ...patch };
    set({ settings: next, error: '' });
    applyTheme(next.theme);
    const result = await desk().updateSettings(patch);
    if (result.ok) set({ settings: result.value });
    else {
      set({ settings: before, error: errorWords(result.error) });
      applyTheme(before.theme);
    }
  },
}));
