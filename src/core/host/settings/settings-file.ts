import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writePrivateJson } from '../../common/private-json-file';
import type { AppSettings } from '../../../shared/bridge';
import {
  DEFAULT_GLOBAL_SHORTCUT,
  DEFAULT_QUICK_CHAT_SHORTCUT,
  isAccelerator,
} from '../../../shared/bridge/accelerator';

const Accelerator = z.string().refine(isAccelerator, 'a shortcut such as CommandOrControl+Shift+Space');

/** The settings file's shape; unknown or broken values fall back to the defaults, one by one. */
const SettingsFile = z.object({
  theme: z.enum(['system', 'light', 'dark']).catch('system'),
  notifications: z.boolean().catch(true),
  permissionMode: z.enum(['preguntar', 'auto']).catch('preguntar'),
  syncRoot: z.string().min(1).nullable().catch(null),
  closeToTray: z.boolean().catch(false),
  globalShortcut: Accelerator.nullable().catch(DEFAULT_GLOBAL_SHORTCUT),
  quickChatShortcut: Accelerator.nullable().catch(DEFAULT_QUICK_CHAT_SHORTCUT),
  updateChannel: z.enum(['stable', 'beta']).catch('stable'),
  openAtLogin: z.boolean().catch(false),
});

export const defaultSettings: AppSettings = SettingsFile.parse({});

/** Checks a change from the page: only known fields, each of its own type. */
export const SettingsPatch = z.strictObject({
  theme: z.enum(['system', 'light', 'dark']).optional(),
  notifications: z.boolean().optional(),
  permissionMode: z.enum(['preguntar', 'auto']).optional(),
  syncRoot: z.string().max(4096).nullable().optional(),
  closeToTray: z.boolean().optional(),
  globalShortcut: Accelerator.nullable().optional(),
  quickChatShortcut: Accelerator.nullable().optional(),
  updateChannel: z.enum(['stable', 'beta']).optional(),
  openAtLogin: z.boolean().optional(),
});

/** Reads `settings.json`; a missing or unreadable file gives the defaults. */
export async function readSettings(filePath: string): Promise<AppSettings> {
  try {
    const parsed = SettingsFile.safeParse(JSON.parse(await readFile(filePath, 'utf8')));
    return parsed.success ? parsed.data : defaultSettings;
  } catch {
    return defaultSettings;
  }
}

/** Writes `settings.json` whole (a new file renamed over the old), readable by this user only. */
export async function writeSettings(filePath: string, settings: AppSettings): Promise<void> {
  await writePrivateJson(filePath, settings);
}
