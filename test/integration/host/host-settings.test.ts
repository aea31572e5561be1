import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSettingsArea } from '../../../src/core/host/settings/settings';

// The desktop shell's settings (issue 18), at their defaults.
const desktop = {
  closeToTray: false,
  globalShortcut: 'CommandOrControl+Shift+Space',
  quickChatShortcut: 'Alt+Space',
  updateChannel: 'stable',
  openAtLogin: false,
};

// The settings area on real files: what a broken or hand-edited settings.json gives, what a change from
// the page may hold, and that the file is written whole and private.

describe('host settings area', () => {
  let dir: string;
  const file = () => join(dir, 'settings.json');
  const area = () => createSettingsArea({ dataDir: dir, home: '/home/person' });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentdesk-settings-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('starts from the defaults, and a broken or odd file falls back field by field', async () => {
    expect(await area().bridge.getSettings()).toEqual({
      ok: true,
      value: {
        theme: 'system',
        notifications: true,
        permissionMode: 'preguntar',
        syncRoot: null,
        ...desktop,
      },
    });
    await writeFile(file(), JSON.stringify({ theme: 'purple', notifications: false, extra: 1 }));
    expect((await area().bridge.getSettings()).ok && (await area().bridge.getSettings())).toMatchObject({
      value: {
        theme: 'system',
        notifications: false,
        permissionMode: 'preguntar',
        syncRoot: null,
        ...desktop,
      },
    });
    await writeFile(file(), '{ not json');
    expect(await area().bridge.getSettings()).toMatchObject({ value: { theme: 'system' } });
  });

  it('saves a change whole, readable by this user only, and reads it back after a restart', async () => {
    const saved = await area().bridge.updateSettings({ theme: 'dark', syncRoot: '~/Sync' });
    expect(saved).toEqual({
      ok: true,
      value: {
        theme: 'dark',
        notifications: true,
        permissionMode: 'preguntar',
        syncRoot: '/home/person/Sync',
        ...desktop,
      },
    });
    expect((await stat(file())).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file(), 'utf8'))).toEqual(saved.ok && saved.value);
    expect(await area().bridge.getSettings()).toEqual(saved);
    expect(await area().bridge.updateSettings({ syncRoot: '  ' })).toMatchObject({
      value: { syncRoot: null },
    });
  });

  it('keeps both of two changes made at once (two boxes ticked in a row), in memory and in the file', async () => {
    const settings = area();
    const [tray, login] = await Promise.all([
      settings.bridge.updateSettings({ closeToTray: true }),
      settings.bridge.updateSettings({ openAtLogin: true }),
    ]);
    expect(tray).toMatchObject({ ok: true, value: { closeToTray: true } });
    expect(login).toMatchObject({ ok: true, value: { closeToTray: true, openAtLogin: true } });
    expect(await settings.bridge.getSettings()).toMatchObject({
      value: { closeToTray: true, openAtLogin: true },
    });
    expect(JSON.parse(await readFile(file(), 'utf8'))).toMatchObject({
      closeToTray: true,
      openAtLogin: true,
    });
  });
  it('refuses unknown fields, wrong types and a relative sync folder, changing nothing', async () => {
    for (const patch of [
      { theme: 'purple' },
      { notifications: 'yes' },
      { token: 'x' },
      { syncRoot: 'relative/dir' },
    ]) {
      expect(await area().bridge.updateSettings(patch as never)).toMatchObject({
        ok: false,
        error: { code: 'invalid_argument' },
      });
    }
    await expect(stat(file())).rejects.toThrow();
  });

  it('says where the data lives, the version, and that updates are not checked without an updater', async () => {
    const info = await area().bridge.getAppInfo();
    const version = JSON.parse(
      await readFile(join(import.meta.dirname, '../../../package.json'), 'utf8'),
    ).version;
    expect(info).toEqual({
      ok: true,
      value: { version, dataDir: dir, defaultSyncRoot: '/home/person/AgentDesk', canCheckForUpdates: false },
    });
    expect(await area().bridge.checkForUpdates()).toMatchObject({
      ok: false,
      error: { code: 'not_available' },
    });
    const withUpdater = createSettingsArea({
      dataDir: dir,
      hooks: {
        version: '9.9.9',
        checkForUpdates: async () => ({ status: 'up-to-date', message: 'You have the latest.' }),
      },
    });
    expect(await withUpdater.bridge.checkForUpdates()).toEqual({
      ok: true,
      value: { status: 'up-to-date', message: 'You have the latest.' },
    });
  });
});
