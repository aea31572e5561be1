/**
 * `agentdesk chat` (the real bin/agentdesk.js process) against a service that is killed with
 * SIGKILL, or stopped with SIGTERM, in the middle of the reply and started again: the chat ends promptly, with a clear
 * message, instead of waiting for a turn that will never finish. The browser step of the sign-in
 * is plain HTTP through the service's real pages.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_EMAIL,
  DEFAULT_PASSWORD,
  ensurePerson,
  firstAgentId,
  signIn,
  startTestService,
} from '../../support/local-service';
import { freePort, startServiceProcess, type ServiceProcess } from '../../support/service-process';
import { walkSignIn } from '../core/support/browser-walk';
import { cliFromSource } from '../../support/cli-source';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function scratch(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('agentdesk chat across a service restart', { timeout: 150_000 }, () => {
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`ends promptly with a clear message when the service is stopped with ${signal} mid-turn and comes back`, async () => {
      const dataDir = await scratch('agentdesk-chat-restart-');
      const seeded = await startTestService({ dataDir });
      await ensurePerson(seeded);
      const agentId = await firstAgentId(seeded, (await signIn(seeded)).access_token);
      await seeded.close();

      const port = await freePort();
      let service: ServiceProcess = await startServiceProcess({ port, dataDir });
      cleanups.push(() => service.kill('SIGTERM'));

      const cliData = await scratch('agentdesk-chat-cli-');
      const child = spawn(
        process.execPath,
        [
          ...cliFromSource,
          'chat',
          agentId,
          'wait 30',
          '--yes',
          '--server',
          service.url,
          '--data',
          cliData,
          '--no-open',
        ],
        { env: { ...process.env, NO_COLOR: '1' } },
      );
      cleanups.push(async () => void child.kill('SIGKILL'));
      let out = '';
      let err = '';
      const seen = (test: () => boolean) =>
        new Promise<void>((resolve) => {
          const check = () => test() && resolve();
          child.stdout.on('data', check);
          child.stderr.on('data', check);
          check();
        });
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

      await seen(() => /\/oauth2\/authorize\S+/.test(err));
      const url = /http:\/\/127\.0\.0\.1:\d+\/oauth2\/authorize\S+/.exec(err)![0];
      await walkSignIn(url, { email: DEFAULT_EMAIL, password: DEFAULT_PASSWORD });
      // The demo agent's "wait" tool is running.
      await seen(() => /⚙.* Running/.test(out));

      await service.kill(signal);
      service = await startServiceProcess({ port, dataDir });
      const back = Date.now();

      const code = await exited;
      expect(code).toBe(1);
      expect(err).toContain('error: The service restarted while this turn was running');
      // Told at its next reconnect, which the backoff after a short outage brings within seconds.
      expect(Date.now() - back).toBeLessThan(60_000);
    });
  }
});
