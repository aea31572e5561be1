import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import type { SecretStore } from '../../src/core/auth/secret-store';
import { createHost, type DeskHost } from '../../src/core/host';
import { silentLogger } from '../../src/core/log/logger';
import { CookieBrowser, DEFAULT_EMAIL, DEFAULT_PASSWORD } from './local-service';

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

/**
 * Such a host in a child process of a test (no vitest there), signed in to `serviceUrl` as the default person
 * through the service's own pages, with secrets in memory (the OS keychain cannot run here).
 */
export async function signedInChildHost(dataDir: string, serviceUrl: string): Promise<DeskHost> {
  const browser = new CookieBrowser(serviceUrl);
  const host = await anotherServerHost({
    dataDir,
    secrets: createMemorySecretStore(),
    openBrowser: async (url) => {
      const authorize = new URL(url);
      const redirectUri = authorize.searchParams.get('redirect_uri')!;
      const state = authorize.searchParams.get('state')!;
      const account = { email: DEFAULT_EMAIL, password: DEFAULT_PASSWORD };
      const code = await browser.authorize(
        authorize.pathname + authorize.search,
        account,
        redirectUri,
        state,
      );
      await fetch(`${redirectUri}?${new URLSearchParams({ code, state })}`);
    },
  });
  const added = await host.addCustomProfile({ baseUrl: serviceUrl, clientId: 'agentdesk-desktop' });
  if (!added.ok) throw new Error(added.error.message);
  const signedIn = await host.signIn();
  if (!signedIn.ok) throw new Error(signedIn.error.message);
  return host;
}
