import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { buildApp } from './app';
import { clearTempLeftovers } from './agent-config/temp-leftovers';
import { clusterFor } from './cluster/cluster';
import { systemClock, type Clock } from './clock';
import { readConfigFile, type ServiceConfig } from './config';
import { buildServiceContext, type CoreContext, type ServiceContext } from './context';
import type { Keyring } from './core-context';
import { databaseUrlOf, isPostgresUrl, openDatabase } from './db/database';
import { createGuestRole } from './guest-role';
import { createIdentity } from './identity';
import { createAccountDeletion } from './identity/account-deletion';
import { createLaunchTrust, type LaunchSignIn } from './identity/launch-trust';
import { makePrivateDir } from './security/private-files';
import { answerClientErrors } from './http/client-errors';
import { readServing, ServiceConfigError } from './serving';

export type { Clock, TestClock } from './clock';
export { createTestClock, systemClock } from './clock';
export type { ServiceConfig } from './config';
export type { ServiceContext } from './context';
export { ServiceConfigError } from './serving';
export { keychainOf } from './library/sealing-key';

export interface ServiceOptions {
  /** 0 or absent: an ephemeral port (unless the config file names one). */
  port?: number;
  /** Folder holding the database, the config file and every agent's files. Created if missing. */
  dataDir: string;
  clock?: Clock;
  /** One line per request and per notable event; never tokens. Default: silent. */
  log?: (line: string) => void;
  /** Overrides keys of `<dataDir>/config.json` (flags of the CLI land here). */
  config?: ServiceConfig;
  /**
   * The app that starts this service in its own process hands over the secret it generated for this launch;
   * `signInLaunchingApp` trusts only that secret. Absent (`npm run service`): no trust path, passwords only.
   */
  launchSecret?: string;
  /**
   * The starting app's or CLI's OS keychain (`keychainOf`): the key sealing the model providers' keys is kept
   * there instead of in `<dataDir>/keys/` (library/sealing-key.ts).
   */
  keyring?: Keyring;
  /**
   * Another program of this computer runs the service on this data folder, and this one could not join it
   * (no saved sign-in to use there: core/host/plumbing/local-service-lease.ts). It serves its own program
   * beside it: it leaves the turns it finds open (they are that one's, still running), the temp files
   * (that one may be writing them) and the scheduled turns (that one fires them) to that service, until
   * that program ends and this one's takes the folder over (`becomeOwn`, guest-role.ts).
   */
  guest?: boolean;
}

export interface RunningService {
  /** Where it listens, `http://127.0.0.1:<port>` by default, no trailing slash. */
  url: string;
  /** The origin its links and issuer name: `publicUrl` when set, else `url`. */
  origin: string;
  port: number;
  context: ServiceContext;
  /** The app's passwordless sign-in of the computer's owner (identity/launch-trust.ts); not an HTTP route. */
  signInLaunchingApp(launchSecret: string, scope?: string): Promise<LaunchSignIn>;
  /** A guest (ServiceOptions.guest) whose program now holds the folder: it does what it left to the other. */
  becomeOwn?(): Promise<void>;
  close(): Promise<void>;
}

/** In a cluster, a temp file younger than this may be another process's write under way: left at start. */
const LEFTOVER_AGE_MS = 10 * 60_000;

/**
 * Starts the v2 service on 127.0.0.1 (or the config's `bind`), answering to loopback names and, when set, to
 * `publicUrl`. A setting that cannot be served (a plain-http public name...) throws ServiceConfigError.
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  await makePrivateDir(options.dataDir);
  const config: ServiceConfig = { ...(await readConfigFile(options.dataDir)), ...options.config };
  const serving = readServing(config);
  const clock = options.clock ?? systemClock;
  const log = options.log ?? (() => {});
  const db = await openStore(options.dataDir, config);
  const disposers: (() => void | Promise<void>)[] = [];
  // Several processes on one PostgreSQL (cluster/): shared events, agent leases, forwarding. Closed last.
  const cluster = await clusterFor(config, log);
  if (cluster) disposers.push(() => cluster.close());
  // A killed service's temp files go before anyone is answered; in a cluster, only those no process still writes.
  // A guest leaves them to the folder's own service, and once it becomes that, sweeps only old ones: it may
  // be writing its own.
  const guest = options.guest ? createGuestRole(log) : undefined;
  const sweep = async (minAgeMs?: number) => {
    const leftovers = await clearTempLeftovers(options.dataDir, minAgeMs ? { minAgeMs } : {});
    if (leftovers > 0) log(`start: removed ${leftovers} temporary file(s) a stopped service had left`);
  };
  if (guest) guest.onOwn(() => sweep(LEFTOVER_AGE_MS));
  else await sweep(cluster ? LEFTOVER_AGE_MS : undefined);
  const identity = createIdentity(db, clock, { signInThrottle: config.signInThrottle });
  await identity.clients.registerConfigured(config.clients);
  const account = createAccountDeletion(db);
  // First of the parts: the token cache forgets what it believed of the person once their rows are gone.
  account.register({ name: 'sign-in tokens', deleted: () => identity.tokenCache.forgetAll() });

  const core: CoreContext = {
    db,
    clock,
    config,
    dataDir: options.dataDir,
    baseUrl: '',
    listenPort: 0,
    localUrl: '',
    serving,
    startedByApp: options.launchSecret !== undefined,
    ...(guest ? { guest } : {}),
    ...(options.keyring ? { keyring: options.keyring } : {}),
    log,
    identity,
    account,
    ...(cluster
      ? {
          sharedEvents: cluster.feed,
          runsAgent: async (id: string) => (await cluster.leases.claim(id)).mine,
          whenAgentLost: (listener: (agentId: string) => void) => cluster.leases.onLost(listener),
        }
      : {}),
    onClose: (dispose: () => void | Promise<void>) => {
      disposers.push(dispose);
    },
  };

  async function dispose(): Promise<void> {
    for (const disposer of disposers.splice(0).reverse()) {
      try {
        await disposer();
      } catch (error) {
        log(`close: ${(error as Error).message}`);
      }
    }
    await db.destroy();
  }

  let server: ServerType;
  let context: ServiceContext;
  try {
    context = await buildServiceContext(core);
    const app = buildApp(context, cluster);
    const port = options.port ?? (typeof config.port === 'number' ? config.port : 0);
    server = await listen(app.fetch, port, serving.bind);
  } catch (error) {
    await dispose();
    throw error;
  }

  const port = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(serving.bind)}:${port}`;
  context.listenPort = port;
  context.localUrl = url;
  await cluster?.join(url);
  context.baseUrl = serving.publicOrigin ?? `http://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;
  const launchTrust = createLaunchTrust(identity, options.launchSecret);
  return {
    url,
    origin: context.baseUrl,
    port,
    context,
    signInLaunchingApp: (secret, scope) => launchTrust.signIn(secret, scope),
    ...(guest ? { becomeOwn: () => guest.becomeOwn() } : {}),
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Open event streams and keep-alive sockets must not hold the close.
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
        await dispose();
      })()),
  };
}

/** The store `config` names; a URL that is no postgres:// one is a config error, as a bad public URL is. */
async function openStore(dataDir: string, config: ServiceConfig) {
  const databaseUrl = databaseUrlOf(config);
  if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl)) {
    throw new ServiceConfigError(
      'database must be a postgres:// URL; leave it out to keep the embedded file.',
    );
  }
  return openDatabase(dataDir, { databaseUrl });
}

/** The running service as the app that started it holds it: `signInApp` presents that app's launch secret. */
export interface AppService extends RunningService {
  signInApp(scope: string): Promise<LaunchSignIn>;
}

/**
 * Starts the service inside the app (desktop, browser mode) with the secret the app generated for this
 * launch. The secret stays in this process's memory: never argv, the environment or a file.
 */
export async function startAppService(
  options: ServiceOptions & { launchSecret: string },
): Promise<AppService> {
  const running = await startService(options);
  return Object.assign(running, {
    signInApp: (scope: string) => running.signInLaunchingApp(options.launchSecret, scope),
  });
}

/** The bind address as a URL host: any-interface binds are reached at loopback, IPv6 goes in brackets. */
function urlHost(bind: string): string {
  if (bind === '0.0.0.0' || bind === '::') return '127.0.0.1';
  return bind.includes(':') ? `[${bind}]` : bind;
}

/**
 * Idle keep-alive connections stay open longer than the pools of common clients (Node's fetch keeps
 * an idle socket 4 s or more, browsers and proxies up to 60 s), as load balancers do (65 s): Node's
 * default of 5 s closes a socket a client is about to reuse, under its request ("other side
 * closed"). The headers timeout must be longer than the keep-alive one, or a request arriving on an
 * idle socket late in its life could be cut by the headers timer.
 */
export const keepAliveTimeoutMs = 65_000;
export const headersTimeoutMs = 66_000;

function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
  hostname: string,
): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname }, () => {
      server.off('error', reject);
      (server as Server).keepAliveTimeout = keepAliveTimeoutMs;
      (server as Server).headersTimeout = headersTimeoutMs;
      answerClientErrors(server as Server);
      resolve(server);
    });
    server.once('error', reject);
  });
}
