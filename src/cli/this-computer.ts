import type { SecretStore } from '../core/auth/secret-store';

/**
 * Starts "this computer"'s service in this process, trusting this run (`launchSecret`), or, for tests
 * (`trusted: false`), with passwords only. The service is imported here, when it is started: it is most of
 * the CLI's code, and a command on a server, a sync or `--help` would pay for it at every start.
 */
export async function startThisComputer(options: {
  dataDir: string;
  /** The address of a service this command takes over from a program that ended; else any free one. */
  port?: number;
  /** Beside the folder's own service, which another program runs (ServiceOptions.guest). */
  guest?: boolean;
  launchSecret: string;
  secrets: SecretStore;
  trusted?: boolean;
}) {
  const { keychainOf, startAppService, startService } = await import('../service/index');
  const { dataDir, launchSecret, secrets, port = 0 } = options;
  const guest = options.guest ? { guest: true } : {};
  return options.trusted === false
    ? startService({ dataDir, port, ...guest })
    : startAppService({ dataDir, port, ...guest, launchSecret, ...keychainOf(secrets) });
}
