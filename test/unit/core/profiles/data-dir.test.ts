import { join } from 'node:path';
import { expect, it } from 'vitest';
import { defaultDataDir, desktopDataDir } from '../../../../src/core/profiles/data-dir';

// Where the app, browser mode and the CLI keep accounts and "this computer"'s service: one folder for all
// three, so they share one service (core/host/plumbing/local-service-lease.ts).

const home = '/home/ana';

it('the Node programs follow each OS, and $AGENTDESK_DATA first', () => {
  expect(defaultDataDir('linux', {}, home)).toBe(join(home, '.local', 'share', 'agentdesk'));
  expect(defaultDataDir('linux', { XDG_DATA_HOME: '/data' }, home)).toBe(join('/data', 'agentdesk'));
  expect(defaultDataDir('darwin', {}, home)).toBe(join(home, 'Library', 'Application Support', 'AgentDesk'));
  expect(defaultDataDir('linux', { AGENTDESK_DATA: '/elsewhere' }, home)).toBe('/elsewhere');
});

it('the desktop app on Linux uses the folder of the CLI, not Electron’s ~/.config/AgentDesk', () => {
  const electron = join(home, '.config', 'AgentDesk');
  const none = () => false;
  expect(desktopDataDir(electron, { platform: 'linux', env: {}, home, hasAccounts: none })).toBe(
    join(home, '.local', 'share', 'agentdesk'),
  );
  // $AGENTDESK_DATA moves the app too, as it moves the CLI.
  expect(desktopDataDir(electron, { platform: 'linux', env: { AGENTDESK_DATA: '/d' }, home })).toBe('/d');
});

it('accounts already in Electron’s folder stay there until the shared folder has its own', () => {
  const electron = join(home, '.config', 'AgentDesk');
  const shared = join(home, '.local', 'share', 'agentdesk');
  const onlyElectron = (dir: string) => dir === electron;
  const both = () => true;
  expect(desktopDataDir(electron, { platform: 'linux', env: {}, home, hasAccounts: onlyElectron })).toBe(
    electron,
  );
  expect(desktopDataDir(electron, { platform: 'linux', env: {}, home, hasAccounts: both })).toBe(shared);
});

it('on macOS Electron’s folder is already the shared one', () => {
  const electron = join(home, 'Library', 'Application Support', 'AgentDesk');
  expect(desktopDataDir(electron, { platform: 'darwin', env: {}, home, hasAccounts: () => true })).toBe(
    electron,
  );
});
