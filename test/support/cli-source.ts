import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Node's arguments that run the `agentdesk` CLI from its TypeScript source (as `npm run cli` does):
 * `spawn(process.execPath, [...cliFromSource, 'chat', …])`. Tests that spawn the CLI check the code
 * as it is now, with no build in between; test/e2e/packed-cli.spec.ts checks the built, installed one.
 * The loader is an absolute URL so the child's working folder does not matter.
 *
 * Under `npm test` the build stage has just bundled this same source into out/node/cli.js and names
 * it in $AGENTDESK_TEST_CLI_JS: that is run instead, because compiling the CLI again under tsx for
 * each of the suite's hundreds of spawns cost about a second of CPU each.
 */
export const cliFromSource: readonly string[] = process.env['AGENTDESK_TEST_CLI_JS']
  ? [process.env['AGENTDESK_TEST_CLI_JS']]
  : [
      '--import',
      pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
      fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url)),
    ];
