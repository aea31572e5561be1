import { randomBytes } from 'node:crypto';
import { keyringCandidate } from '../core/auth/keyring-secret-store';
import type { Logger } from '../core/log/logger';
import { silentLogger } from '../core/log/logger';
import { chooseSecretStore, type SecretStore } from '../core/auth/secret-store';
import { createHost, type DeskHost } from '../core/host';
import { platformInfo } from '../core/host/platform/platform-info';
import { makePrivateDataDir } from '../core/profiles/data-dir';
import type { CliIo } from './terminal';
import { startThisComputer } from './this-computer';

export interface CliHostOptions {
  dataDir: string;
  io: CliIo;
  /** Also open the sign-in page in the default browser (the URL is always printed). */
  openBrowser: boolean;
  /** Tests pass a shared store; by default the OS keychain, else memory only. */
  secrets?: SecretStore;
  logger?: Logger;
  signInTimeoutMs?: number;
  /** Tests only: false starts "This computer"'s service with no trust in this process (passwords only). */
  trustedLaunch?: boolean;
}

/**
 * The host for one CLI run: the keychain (or memory, said plainly), and "this computer"'s service in-process,
 * which trusts this run as the app's does (no password on this computer).
 */
export async function openCliHost(options: CliHostOptions): Promise<DeskHost> {
  const { io } = options;
  const secrets = options.secrets ?? (await chooseSecretStore([keyringCandidate()])).store;
  // A memory-only store is explained where it matters, by the sign-in (cli-session.ts), not on every command.
  await makePrivateDataDir(options.dataDir);
  // This run's proof to the service it starts in this process (docs/security.md): in memory only.
  const launchSecret = randomBytes(32).toString('base64url');
  return createHost({
    dataDir: options.dataDir,
    secrets,
    logger: options.logger ?? silentLogger,
    ...(options.signInTimeoutMs ? { signInTimeoutMs: options.signInTimeoutMs } : {}),
    who: 'the agentdesk command',
    startEmbeddedService: ({ dataDir, port, guest }) =>
      startThisComputer({
        dataDir,
        ...(port ? { port } : {}),
        ...(guest ? { guest } : {}),
        launchSecret,
        secrets,
        trusted: options.trustedLaunch !== false,
      }),
    openBrowser: async (url) => {
      io.err(`Open this address in your browser to sign in:\n  ${url}\n`);
      if (options.openBrowser) {
        const { default: open } = await import('open');
        // A missing browser is not fatal: the address is printed above.
        await open(url).catch(() => undefined);
      }
    },
    os: {
      platform: platformInfo(process.platform, 'browser'),
      notify: () => {},
      openExternal: (url) => io.out(`${url}\n`),
      openPath: async (path) => {
        const { default: open } = await import('open');
        await open(path);
      },
    },
  });
}
