import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * A TypeScript fixture agent run like the demo agent in dev: this Node with the tsx loader (passed as an
 * absolute URL: the agent's cwd is its workspace, where a bare `tsx` would not resolve). Spelled out
 * here rather than taken from the demo agent's command, which is the prebuilt JavaScript under
 * `npm test` ($AGENTDESK_DEMO_AGENT_JS).
 */
export function tsxCommand(script: string, ...args: string[]): string[] {
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return [process.execPath, '--import', loader, script, ...args];
}
