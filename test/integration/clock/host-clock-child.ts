/**
 * The app's host as browser mode runs it (createHost), in a process of its own so token-refresh-clock.test.ts
 * can start it with the clock-shift preload. It signs in to SERVICE_URL as the default person, then for each
 * line `calls N` on stdin asks for the agents N times at once and prints how many answered and how many
 * refresh requests it has sent to the token endpoint so far (counted on fetch, which the sign-in uses).
 */
import { createInterface } from 'node:readline';
import { signedInChildHost } from '../../support/another-server-host';

const serviceUrl = process.env['SERVICE_URL'] ?? '';
let refreshes = 0;
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const body = init?.body;
  if (body instanceof URLSearchParams && body.get('grant_type') === 'refresh_token') refreshes += 1;
  return realFetch(input, init);
};

const host = await signedInChildHost(process.env['HOST_DATA'] ?? '', serviceUrl);
console.log(JSON.stringify({ signedIn: true }));

for await (const line of createInterface({ input: process.stdin })) {
  const n = Number(/^calls (\d+)$/.exec(line)?.[1] ?? 0);
  const answers = await Promise.all(Array.from({ length: n }, () => host.listAgents()));
  const failed = answers.flatMap((a) => (a.ok ? [] : [a.error.message]));
  console.log(JSON.stringify({ ok: n - failed.length, failed, refreshes }));
}
