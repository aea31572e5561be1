/**
 * Global shortcuts in Electron's accelerator form ("CommandOrControl+Shift+Space"): one or more
 * modifiers, then one key. Checked here so the settings file, the host and the page agree.
 */
const MODIFIERS = new Set([
  'Command',
  'Cmd',
  'Control',
  'Ctrl',
  'CommandOrControl',
  'CmdOrCtrl',
  'Alt',
  'Option',
  'AltGr',
  'Shift',
  'Super',
  'Meta',
]);
const KEY =
  /^(?:[A-Z0-9]|F(?:[1-9]|1[0-9]|2[0-4])|Space|Tab|Enter|Backspace|Delete|Insert|Home|End|PageUp|PageDown|Up|Down|Left|Right|Esc|Plus|[`\-=[\];',./\\])$/;

export const DEFAULT_GLOBAL_SHORTCUT = 'CommandOrControl+Shift+Space';
/** Opens the quick chat window from anywhere (ChatGPT's key for its own; Settings changes it). */
export const DEFAULT_QUICK_CHAT_SHORTCUT = 'Alt+Space';

/** True for at least one modifier and exactly one key, each named once. */
export function isAccelerator(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 80) return false;
  const parts = value.split('+');
  const key = parts.pop() ?? '';
  if (parts.length === 0 || new Set(parts).size !== parts.length) return false;
  return parts.every((part) => MODIFIERS.has(part)) && KEY.test(key.length === 1 ? key.toUpperCase() : key);
}
