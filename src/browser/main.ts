import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { consoleSink, createLogger } from '../core/log/logger';
import { defaultDataDir, usePrivateUmask } from '../core/profiles/data-dir';
import { startBrowserMode } from './browser-mode';

/** `npm run web -- [--data <dir>] [--port <n>] [--verbose]`: prints the URL to open. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      data: { type: 'string' },
      port: { type: 'string' },
      renderer: { type: 'string' },
      verbose: { type: 'boolean', default: false },
    },
  });
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
