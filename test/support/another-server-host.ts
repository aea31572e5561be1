import type { SecretStore } from '../../src/core/auth/secret-store';
import { createHost, type DeskHost } from '../../src/core/host';
import { silentLogger } from '../../src/core/log/logger';

/**
 * The app's host as the tests of a profile on another server make it: browser mode on Linux, no embedded
 * service (asking for one fails), no notifications or links opened, nothing logged. `openBrowser` walks the
 * sign-in (support/person-browser.ts, or a child process's own without vitest).
 */
export function anotherServerHost(options: {
  dataDir: string;
  secrets: SecretStore;
  openBrowser: (url: string) => Promise<void>;
}): Promise<DeskHost> {
  return createHost({
    ...options,
    startEmbeddedService: () => Promise.reject(new Error('not used: the profile is another server')),
    os: {
      platform: { os: 'linux', shell: 'browser', modifierKey: 'Ctrl' },
      notify: () => {},
      openExternal: () => {},
    },
    logger: silentLogger,
  });
}
