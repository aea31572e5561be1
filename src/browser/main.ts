import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { consoleSink, createLogger } from '../core/log/logger';
import { defaultDataDir, usePrivateUmask } from '../core/profiles/data-dir';
import { startBrowserMode } from './browser-mode';

const USAGE = `Usage: npm run web -- [--data <dir>] [--port <n>] [--verbose]
  Starts AgentDesk in browser mode on 127.0.0.1 (the local service, the app's host and its page) and prints
  the address to open, which carries this launch's key.
  --data <dir>   the app's data folder (without it: ${defaultDataDir()}; $AGENTDESK_DATA sets it too)
  --port <n>     the page's port (else any free port)
  --verbose      every log line, not only warnings and errors
`;

/** `npm run web -- [--data <dir>] [--port <n>] [--verbose]`: prints the URL to open. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      data: { type: 'string' },
      port: { type: 'string' },
      renderer: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const logger = createLogger((level, line) => {
    if (values.verbose || level === 'warn' || level === 'error') consoleSink(level, line);
  }, 'agentdesk');
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535))
    throw new Error(`--port takes a whole number from 0 to 65535 (0: any free port), not "${values.port}".`);
  const dataDir = resolve(values.data ?? defaultDataDir());
  const mode = await startBrowserMode({
    dataDir,
    logger,
    ...(port !== undefined ? { port } : {}),
    ...(values.renderer ? { rendererDir: values.renderer } : {}),
  });
  const session = await mode.host.getSession();
  const warning = session.ok ? session.value.secretStore.warning : undefined;
  console.log(`AgentDesk (browser mode) is running. Data: ${dataDir}`);
  if (warning) console.log(`Note: ${warning}`);
  console.log(`Open this address in your browser (it carries this launch's key; keep it private):`);
  console.log(`  ${mode.url}`);
  const stop = (): void => {
    void mode.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

usePrivateUmask();
main().catch((error: unknown) => {
  console.error(`AgentDesk could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
