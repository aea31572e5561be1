import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { keyringCandidate } from '../core/auth/keyring-secret-store';
import type { Logger } from '../core/log/logger';
import { silentLogger } from '../core/log/logger';
import { chooseSecretStore, type SecretStore, type SecretStoreCandidate } from '../core/auth/secret-store';
import { createBridgeDispatcher } from '../core/host/dispatch';
import { makePrivateDataDir } from '../core/profiles/data-dir';
import { createHost, type DeskHost, type EmbeddedService } from '../core/host';
import { platformInfo } from '../core/host/platform/platform-info';
import type { ShellHooks } from '../core/host/platform/shell-hooks';
import { startAppService, startService, type RunningService, type ServiceOptions } from '../service/index';
import { attachBridgeSocket, type BridgeSocket } from './bridge-socket';
import { browserModeCsp, serveRenderer, type StaticServer } from './static-server';

export interface BrowserModeOptions {
  /** Profiles, and "this computer"'s service data under `local-service/`. */
  dataDir: string;
  /** The built renderer (electron-vite's out/renderer). */
  rendererDir?: string;
  /** The page server's port; 0 (default) picks a free one. */
  port?: number;
  /** Overrides the secret store (tests); by default the OS keychain, else memory only with a warning. */
  secrets?: SecretStore;
  keychain?: SecretStoreCandidate;
  /** Options passed to the embedded local service (e.g. engine settings). */
  serviceConfig?: ServiceOptions['config'];
  /**
   * Test only: the embedded service's clock. A clock with timers (the service's ManualTimers) lets a
   * test move time, e.g. to a scheduled turn's due time, without waiting.
   */
  serviceClock?: ServiceOptions['clock'];
  logger?: Logger;
  signInTimeoutMs?: number;
  /** Test only: desktop-shell pieces, e.g. a fake update source. Browser mode itself has none. */
  shell?: ShellHooks;
  /**
   * Test only: false starts "this computer"'s service like `npm run service` (no launch secret), so it is
   * signed in to with an e-mail and password through the browser. Default: the service trusts this app.
   */
  trustedLaunch?: boolean;
}

export interface BrowserMode {
  /** The address to open, with the per-launch key in the fragment (never sent to a server). */
  url: string;
  /** The page server's origin. */
  origin: string;
  host: DeskHost;
  socket: BridgeSocket;
  /** The embedded service once "this computer" started it. */
  service(): RunningService | undefined;
  close(): Promise<void>;
}

/**
 * Browser mode: the local service (started on demand by the host), the host,
 * the built renderer on 127.0.0.1, and the bridge over a WebSocket that needs
 * the per-launch key. "The system browser" is the page's own browser.
 */
export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserMode> {
  const logger = options.logger ?? silentLogger;
  const key = randomBytes(32).toString('base64url');
  // This launch's proof to its own service (docs/security.md): generated here, handed over in memory.
  const launchSecret = randomBytes(32).toString('base64url');
  const secrets =
    options.secrets ?? (await chooseSecretStore([options.keychain ?? keyringCandidate()])).store;

  let embedded: RunningService | undefined;
  // The socket is attached after the host exists; the host's browser hooks look it up when called.
  const pages: { socket?: BridgeSocket } = {};
  await makePrivateDataDir(options.dataDir);
  const host = await createHost({
    dataDir: options.dataDir,
    secrets,
    logger,
    ...(options.signInTimeoutMs ? { signInTimeoutMs: options.signInTimeoutMs } : {}),
    who: 'AgentDesk in the browser (npm run web)',
    startEmbeddedService: async ({ dataDir, port = 0, guest }): Promise<EmbeddedService> => {
      const settings: ServiceOptions = {
        dataDir,
        port,
        ...(guest ? { guest } : {}),
        log: (line) => logger.debug(line),
        ...(options.serviceConfig ? { config: options.serviceConfig } : {}),
        ...(options.serviceClock ? { clock: options.serviceClock } : {}),
      };
      // Untrusted (tests): the service as `npm run service` runs it, with no secret and its first-run page.
      if (options.trustedLaunch === false) return (embedded = await startService(settings));
      const started = await startAppService({ ...settings, launchSecret });
      embedded = started;
      return started;
    },
    openBrowser: (url) => {
      if (!pages.socket?.openUrl(url)) throw new Error('no AgentDesk page is open to show the sign-in page');
    },
    os: {
      platform: platformInfo(process.platform, 'browser'),
      ...(options.shell ? { shell: options.shell } : {}),
      notify: (notification) => pages.socket?.notify(notification.title, notification.body),
      openExternal: (url) => {
        pages.socket?.openUrl(url);
      },
      // The page and this process share one computer (127.0.0.1), so its file manager is the person's.
      openPath: async (path) => {
        const { default: open } = await import('open');
        await open(path);
      },
    },
  });

  let site: StaticServer;
  try {
    site = await serveRenderer(resolve(options.rendererDir ?? 'out/renderer'), options.port ?? 0, (origin) =>
      browserModeCsp([origin.replace(/^http/, 'ws')]),
    );
  } catch (error) {
    await host.close();
    throw error;
  }
  const origin = site.url.replace(/\/$/, '');
  const carrier = attachBridgeSocket({
    server: site.server,
    dispatcher: createBridgeDispatcher(host, (error) => logger.error('A bridge call failed.', error)),
    key,
    allowedOrigin: origin,
    log: (line) => logger.info(line),
  });
  pages.socket = carrier;

  let closing: Promise<void> | undefined;
  return {
    url: `${site.url}#key=${key}`,
    origin,
    host,
    socket: carrier,
    service: () => embedded,
    close: () =>
      (closing ??= (async () => {
        await carrier.close();
        site.server.closeAllConnections();
        await site.close();
        await host.close();
      })()),
  };
}
