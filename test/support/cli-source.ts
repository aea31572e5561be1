import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Node's arguments that run the `agentdesk` CLI from its TypeScript source (as `npm run cli` does):
 * `spawn(process.execPath, [...cliFromSource, 'chat', …])`. Tests that spawn the CLI check the code
 * as it is now, with no build in between; test/e2e/packed-cli.spec.ts checks the built, installed one.
 * The loader is an absolute URL so the child's working folder does not matter.
 */
export const cliFromSource: readonly string[] = [
  '--import',
  pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
  fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url)),
];
