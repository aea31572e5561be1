import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { err } from '../../../src/core/common/result';
import { buildMenuTemplate } from '../../../src/main/menu';
import { BASIC_TEXT_WARNING, chooseDesktopSecretStore } from '../../../src/main/secret-stores';

// Electron's safeStorage is a stand-in here (the Electron binary cannot run):
// safeStorage "encrypts" by reversing bytes, which is enough to prove no plain text reaches disk.
function fakeSafeStorage(backend: string, available = true) {
  return {
    isAsyncEncryptionAvailable: async () => available,
    getSelectedStorageBackend: () => backend as 'basic_text',
    encryptStringAsync: async (plain: string) => Buffer.from(plain, 'utf8').reverse(),
    decryptStringAsync: async (data: Buffer) => ({
      result: Buffer.from(data).reverse().toString('utf8'),
      shouldReEncrypt: false,
    }),
  };
}
const noKeychain = { kind: 'keychain', open: async () => err('no keychain on this machine') };

describe('secret store choice', () => {
  it('uses safeStorage with the basic_text warning on Linux and writes only ciphertext', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentdesk-safe-'));
    const chosen = await chooseDesktopSecretStore(
      fakeSafeStorage('basic_text'),
      { userDataDir: dir, platform: 'linux' },
      noKeychain,
    );
    expect(chosen.store.kind).toBe('safe-storage');
    expect(chosen.store.warning).toBe(BASIC_TEXT_WARNING);
    expect(chosen.skipped).toEqual([{ kind: 'keychain', reason: 'no keychain on this machine' }]);
    await chosen.store.set('tokens:local', 'refresh-me-please');
    expect(await chosen.store.get('tokens:local')).toBe('refresh-me-please');
    expect(await readFile(join(dir, 'secrets.json'), 'utf8')).not.toContain('refresh-me-please');
    await rm(dir, { recursive: true, force: true });
  });

  it('has no warning with a real Linux keyring backend or on other systems', async () => {
    const libsecret = await chooseDesktopSecretStore(
      fakeSafeStorage('gnome_libsecret'),
      { userDataDir: tmpdir(), platform: 'linux' },
      noKeychain,
    );
    expect(libsecret.store.warning).toBeUndefined();
    const mac = await chooseDesktopSecretStore(
      fakeSafeStorage('basic_text'),
      { userDataDir: tmpdir(), platform: 'darwin' },
      noKeychain,
    );
    expect(mac.store.warning).toBeUndefined();
  });

  it('keeps tokens in memory only, saying so, when nothing can encrypt', async () => {
    const chosen = await chooseDesktopSecretStore(
      fakeSafeStorage('basic_text', false),
      { userDataDir: tmpdir(), platform: 'linux' },
      noKeychain,
    );
    expect(chosen.store.kind).toBe('memory');
    expect(chosen.store.warning).toMatch(/memory only/);
  });
});

describe('menu conventions', () => {
  const actions = { openHelp: vi.fn(), showLogs: vi.fn() };
  it('gives macOS its app menu with Quit, and puts Quit in File elsewhere', () => {
    const mac = buildMenuTemplate('darwin', 'AgentDesk', actions);
    expect(mac[0]!.label).toBe('AgentDesk');
    const appRoles = (mac[0]!.submenu as { role?: string }[]).map((i) => i.role);
    expect(appRoles).toEqual(
      expect.arrayContaining(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']),
    );
    expect((mac[1]!.submenu as { role?: string }[]).map((i) => i.role)).toContain('close');

    const linux = buildMenuTemplate('linux', 'AgentDesk', actions);
    expect(linux[0]!.label).toBe('File');
    expect((linux[0]!.submenu as { role?: string }[]).map((i) => i.role)).toContain('quit');
    expect(linux.some((i) => i.role === 'windowMenu')).toBe(true);
  });

  it('offers developer tools only in development, and Help opens the docs', () => {
    const roles = (template: ReturnType<typeof buildMenuTemplate>) =>
      (template.find((i) => i.label === 'View')!.submenu as { role?: string }[]).map((i) => i.role);
    expect(roles(buildMenuTemplate('linux', 'AgentDesk', actions))).not.toContain('toggleDevTools');
    expect(roles(buildMenuTemplate('linux', 'AgentDesk', actions, { devTools: true }))).toContain(
      'toggleDevTools',
    );
    const help = buildMenuTemplate('win32', 'AgentDesk', actions).find((i) => i.role === 'help')!;
    (help.submenu as { click: () => void }[])[0]!.click();
    expect(actions.openHelp).toHaveBeenCalledTimes(1);
    const showLogs = (help.submenu as { label: string; click: () => void }[]).find(
      (i) => i.label === 'Show Logs',
    )!;
    showLogs.click();
    expect(actions.showLogs).toHaveBeenCalledTimes(1);
  });
});
