import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { buildApp } from './app';
import { systemClock, type Clock } from './clock';
import { readConfigFile, type ServiceConfig } from './config';
import type { CoreContext, ServiceContext } from './context';
import { openDatabase } from './db/database';
import { createIdentity } from './identity';
import { createAccountDeletion } from './identity/account-deletion';
import { makePrivateDir } from './security/private-files';
import { subsystems } from './subsystems';
import { answerClientErrors } from './http/client-errors';

export type { Clock, TestClock } from './clock';
export { createTestClock, systemClock } from './clock';
export type { ServiceConfig } from './config';
export type { ServiceContext } from './context';

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
}

export interface RunningService {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  port: number;
  context: ServiceContext;
  close(): Promise<void>;
}

/** Starts the local v2 service on 127.0.0.1 (never another interface). */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  await makePrivateDir(options.dataDir);
  const config: ServiceConfig = { ...(await readConfigFile(options.dataDir)), ...options.config };
  const clock = options.clock ?? systemClock;
  const log = options.log ?? (() => {});
  const db = openDatabase(options.dataDir);
  const disposers: (() => void | Promise<void>)[] = [];
  const identity = createIdentity(db, clock);
  identity.clients.registerConfigured(config.clients);

  // Subsystems declare their own context fields (declaration merging) and set them in `start`, below.
  const core: CoreContext = {
    db,
    clock,
    config,
    dataDir: options.dataDir,
    baseUrl: '',
    log,
    identity,
    account: createAccountDeletion(db),
    onClose: (dispose: () => void | Promise<void>) => {
      disposers.push(dispose);
    },
  };
  const context = core as ServiceContext;

  async function dispose(): Promise<void> {
    for (const disposer of disposers.splice(0).reverse()) {
      try {
        await disposer();
      } catch (error) {
        log(`close: ${(error as Error).message}`);
      }
    }
    db.close();
  }

  let server: ServerType;
  try {
    for (const subsystem of subsystems) await subsystem.start(context);
    const app = buildApp(context);
    const port = options.port ?? (typeof config.port === 'number' ? config.port : 0);
    server = await listen(app.fetch, port);
  } catch (error) {
    await dispose();
    throw error;
  }

  const port = (server.address() as AddressInfo).port;
  context.baseUrl = `http://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: context.baseUrl,
    port,
    context,
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

function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname: '127.0.0.1' }, () => {
      server.off('error', reject);
      answerClientErrors(server as Server);
      resolve(server);
    });
    server.once('error', reject);
  });
}
