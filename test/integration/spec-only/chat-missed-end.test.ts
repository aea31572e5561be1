/**
 * Issue 26, item 3: `agentdesk chat` (the real CLI process) against a spec-only server
 * (test/support/spec-only-server.ts: no event ids, so no resume) in front of the real service. The
 * stream is cut in the middle of the reply (test/support/tcp-switch.ts stops taking connections)
 * and comes back only after the turn ended, so the stream says nothing runs. The whole reply is in
 * the conversation's messages: the CLI reads the missing tail from there, prints it once, exits 0.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFromSource } from '../../support/cli-source';
import {
  DEFAULT_EMAIL,
  DEFAULT_PASSWORD,
  ensurePerson,
  firstAgentId,
  signIn,
  startTestService,
  type TestService,
} from '../../support/local-service';
import { startSpecOnlyServer, type SpecOnlyServer } from '../../support/spec-only-server';
import { startTcpSwitch } from '../../support/tcp-switch';
import { walkSignIn } from '../core/support/browser-walk';

let service: TestService;
let spec: SpecOnlyServer;
let scratch = '';
let agentId = '';
let token = '';
beforeAll(async () => {
  service = await startTestService();
  await ensurePerson(service);
  token = (await signIn(service)).access_token;
  agentId = await firstAgentId(service, token);
  spec = await startSpecOnlyServer(service.url);
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-chat-missed-'));
});
afterAll(async () => {
  await spec?.close();
  await service?.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

const count = (text: string, part: string) => text.split(part).length - 1;

/** The conversation's last turn on the service itself (not through the cut connection). */
async function lastTurnState(sessionId: string): Promise<string | undefined> {
  const answer = await fetch(`${service.url}/api/v2/me/agents/${agentId}/conversations/${sessionId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await answer.json()) as { ultimoTurno?: { estado: string } | null };
  return body.ultimoTurno?.estado;
}

describe('agentdesk chat: the stream cut past the end of the turn, on a server without event ids', () => {
  it('reads the rest of the reply from the conversation, prints it once, and exits 0', async () => {
    const line = await startTcpSwitch(spec.url);
    const child = spawn(
      process.execPath,
      [
        ...cliFromSource,
        'chat',
        agentId,
        'wait 1',
        '--yes',
        '--server',
        line.url,
        '--data',
        scratch,
        '--no-open',
      ],
      { env: { ...process.env, NO_COLOR: '1' } },
    );
    let out = '';
    let err = '';
    const listeners = new Set<() => void>();
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (const listener of listeners) listener();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      for (const listener of listeners) listener();
    });
    const seen = (test: () => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!test()) return;
          listeners.delete(check);
          resolve();
        };
        listeners.add(check);
        check();
      });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await seen(() => /\/oauth2\/authorize\S+/.test(err));
      const url = /http:\/\/127\.0\.0\.1:\d+\S*\/oauth2\/authorize\S+/.exec(err)![0];
      await walkSignIn(url, { email: DEFAULT_EMAIL, password: DEFAULT_PASSWORD });
      // The reply has begun ("Waiting 1 seconds…", then the wait tool): cut the stream there.
      await seen(() => /⚙.* Running/.test(out));
      const sessionId = /Conversation (\S+)/.exec(err)![1]!;
      await line.down();
      // The turn ends on the server while the stream is away.
      for (
        let state = await lastTurnState(sessionId);
        state !== 'done';
        state = await lastTurnState(sessionId)
      ) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await line.up();
      const code = await exited;
      expect(err).not.toMatch(/missed/);
      expect(count(out, 'Waiting 1 seconds')).toBe(1);
      expect(count(out, 'Done waiting 1 seconds.')).toBe(1);
      expect(code, out + err).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await line.down().catch(() => undefined);
    }
  }, 120_000);
});
