import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppSettings } from '../../../src/shared/bridge';
import { isAccelerator } from '../../../src/shared/bridge/accelerator';
import { createSettingsArea } from '../../../src/core/host/settings/settings';

// The desktop shell's settings (tray, global shortcut, update channel, open at login) in the real
// settings file of a temporary data folder.
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-desktop-settings-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('desktop settings', () => {
  it('defaults: stay in the window, shortcut on, stable channel, open at login off', async () => {
    const area = createSettingsArea({ dataDir });
    expect(await area.bridge.getSettings()).toMatchObject({
      value: {
        closeToTray: false,
        globalShortcut: 'CommandOrControl+Shift+Space',
        updateChannel: 'stable',
        openAtLogin: false,
      },
    });
  });

  it('saves each change, tells the shell, and keeps it across a restart', async () => {
    const seen: AppSettings[] = [];
    const area = createSettingsArea({ dataDir, hooks: { onChange: (s) => seen.push(s) } });
    await area.bridge.updateSettings({ closeToTray: true, updateChannel: 'beta' });
    await area.bridge.updateSettings({ globalShortcut: null, openAtLogin: true });
    expect(seen.map((s) => [s.closeToTray, s.updateChannel, s.globalShortcut, s.openAtLogin])).toEqual([
      [true, 'beta', 'CommandOrControl+Shift+Space', false],
      [true, 'beta', null, true],
    ]);
    const again = createSettingsArea({ dataDir });
    expect(await again.bridge.getSettings()).toMatchObject({
      value: { closeToTray: true, updateChannel: 'beta', globalShortcut: null, openAtLogin: true },
    });
  });

  it('refuses a shortcut that is not one, a channel that does not exist, and changes nothing', async () => {
    const area = createSettingsArea({ dataDir });
    for (const patch of [
      { globalShortcut: 'Space' },
      { globalShortcut: 'Ctrl+Ctrl+A' },
      { globalShortcut: 'Ctrl+Shift+Banana' },
      { updateChannel: 'nightly' },
      { openAtLogin: 'yes' },
    ]) {
      expect(await area.bridge.updateSettings(patch as never)).toMatchObject({
        ok: false,
        error: { code: 'invalid_argument' },
      });
    }
    expect(await area.bridge.updateSettings({ globalShortcut: 'Alt+Shift+K' })).toMatchObject({
      value: { globalShortcut: 'Alt+Shift+K' },
    });
  });

  it('reads a hand-edited file field by field', async () => {
    await writeFile(
      join(dataDir, 'settings.json'),
      JSON.stringify({ globalShortcut: 'nonsense', updateChannel: 'beta', openAtLogin: 1 }),
    );
    const settings = await createSettingsArea({ dataDir }).bridge.getSettings();
    expect(settings).toMatchObject({
      value: { globalShortcut: 'CommandOrControl+Shift+Space', updateChannel: 'beta', openAtLogin: false },
    });
    expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).toContain('nonsense');
  });

  it('knows an accelerator from other text', () => {
    for (const ok of ['CommandOrControl+Shift+Space', 'Alt+F4', 'Ctrl+Shift+a', 'Super+/']) {
      expect(isAccelerator(ok)).toBe(true);
    }
    for (const bad of ['', 'A', 'Shift+', '+A', 'Ctrl+A+B', 'Hyper+A', 'Ctrl+Shift+Space'.repeat(8), 42]) {
      expect(isAccelerator(bad)).toBe(false);
    }
  });
});
