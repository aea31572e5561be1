/**
 * `npm run soak -- --minutes N`: runs soak-run.ts with the built service and CLI (out/node/) when a build
 * is there, as `npm test` does: compiling them again under tsx at each of the run's restarts costs seconds
 * of CPU each. The variables are read when the test helpers load, so they are set before the import.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

for (const [name, file] of [
  ['AGENTDESK_TEST_SERVICE_JS', 'service.js'],
  ['AGENTDESK_TEST_CLI_JS', 'cli.js'],
] as const) {
  const built = join(import.meta.dirname, '../../out/node', file);
  if (existsSync(built)) process.env[name] ??= built;
}
await import('./soak-run');
