/**
 * The `agentdesk` CLI (the real bin/agentdesk.js process) against a server that offers exactly the
 * spec and none of our extensions (test/support/spec-only-server.ts in front of the real local
 * service): sign-in, agents, chat with a permission answered in the terminal, continuing a
 * conversation with --conversation, and sync --once,
 * which can only upload there and must never delete or overwrite anything because of it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_EMAIL,
  DEFAULT_PASSWORD,
  createAgentToken,
  ensurePerson,
  firstAgentId,
  signIn,
  startTestService,
  type TestService,
} from '../../support/local-service';
import { startSpecOnlyServer, type SpecOnlyServer } from '../../support/spec-only-server';
import { walkSignIn } from '../core/support/browser-walk';
import { cliFromSource } from '../../support/cli-source';

/** The CLI's permission question, first asked or asked again. */
const ASKED = /(?:Choose 1-\d+ \(y allows once, n denies\)|Type 1-\d+, y or n): /g;

interface Finished {
  code: number | null;
  out: string;
  err: string;
}

describe('the CLI against a spec-only server', { timeout: 120_000 }, () => {
  let service: TestService;
  let spec: SpecOnlyServer;
  let tenant: SpecOnlyServer;
  let scratch = '';
  let agentId = '';
  let ownerToken = '';

  beforeAll(async () => {
    service = await startTestService();
    await ensurePerson(service);
    ownerToken = (await signIn(service)).access_token;
    agentId = await firstAgentId(service, ownerToken);
    spec = await startSpecOnlyServer(service.url);
    tenant = await startSpecOnlyServer(service.url, { basePath: '/tenant' });
    scratch = await mkdtemp(join(tmpdir(), 'agentdesk-spec-cli-'));
  });
  afterAll(async () => {
    await spec.close();
    await tenant.close();
    await service.cleanup();
    await rm(scratch, { recursive: true, force: true });
  });

  /** Runs the CLI; signs in through the server's pages when asked, and picks option 1 when asked to choose. */
  function agentdesk(args: string[]): Promise<Finished> {
    const browserless = args[0] === 'sync' ? [] : ['--no-open'];
    const child = spawn(
      process.execPath,
      [...cliFromSource, ...args, '--data', join(scratch, 'cli'), ...browserless],
      {
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    let out = '';
    let err = '';
    let walking = false;
    let answered = 0;
    const watch = () => {
      const url = /http:\/\/127\.0\.0\.1:\d+(?:\/[\w-]+)*\/oauth2\/authorize\S+/.exec(err)?.[0];
      if (url && !walking) {
        walking = true;
        void walkSignIn(url, { email: DEFAULT_EMAIL, password: DEFAULT_PASSWORD });
      }
      // Every question is answered y, as a person at a terminal does (it allows once).
      const asked = (out.match(ASKED) ?? []).length;
      if (asked > answered) {
        answered = asked;
        child.stdin.write('y\n');
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      watch();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      watch();
    });
    return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
  }

  const server = () => ['--server', spec.url];

  it('signs in through the server address and lists the agents', async () => {
    const login = await agentdesk(['login', ...server()]);
    expect(login.err).toContain(`${spec.url}/oauth2/authorize?`);
    expect(login.code).toBe(0);
    expect(login.out).toContain(`as ${DEFAULT_EMAIL}`);

    const agents = await agentdesk(['agents', ...server()]);
    expect(agents.code).toBe(0);
    expect(agents.out).toContain(agentId);
  });

  it('keeps the base path of a server address that has one, in every address it builds', async () => {
    expect(tenant.url).toMatch(/\/tenant$/);
    const login = await agentdesk(['login', '--server', tenant.url]);
    expect(login.err).toContain(`${tenant.url}/oauth2/authorize?`);
    expect(login.code).toBe(0);
    const chat = await agentdesk([
      'chat',
      agentId,
      'echo under a base path',
      '--yes',
      '--server',
      tenant.url,
    ]);
    expect(chat.code).toBe(0);
    expect(chat.out).toContain('under a base path');
    // Nothing was asked for outside /tenant except the server's own sign-in pages.
    expect(tenant.refused).toEqual([]);
  });

  it('chats, answering y to a permission in the terminal, and the file is written', async () => {
    const message = 'write from-chat.txt\n```\nwritten through a spec-only server\n```';
    const chat = await agentdesk(['chat', agentId, message, ...server()]);
    expect(chat.code).toBe(0);
    expect(chat.out).toMatch(/The agent asks: /);
    // y was understood: asked once, not again.
    expect(chat.out.match(ASKED)).toEqual([
      expect.stringMatching(/^Choose 1-\d+ \(y allows once, n denies\): $/),
    ]);
    const written = await fetch(`${service.url}/api/v2/agents/${agentId}/files/from-chat.txt`, {
      headers: { Authorization: `Bearer ${ownerToken}`, Accept: 'application/octet-stream' },
    });
    expect(await written.text()).toBe('written through a spec-only server');
  });

  it('continues a conversation with --conversation', async () => {
    const first = await agentdesk(['chat', agentId, 'the otters are back', '--yes', ...server()]);
    expect(first.code).toBe(0);
    const sessionId = /Conversation (\S+)/.exec(first.err)?.[1];
    expect(sessionId).toBeTruthy();
    const again = await agentdesk([
      'chat',
      agentId,
      'and the herons?',
      '--conversation',
      sessionId!,
      '--yes',
      ...server(),
    ]);
    expect(again.code).toBe(0);
    expect(again.err).toContain(`Conversation ${sessionId}`);
    expect(again.out).toContain('before this you said: "the otters are back"');
    expect(spec.refused).toEqual([]);
  });

  it('sync --once only uploads there, says so, and deletes or overwrites nothing', async () => {
    const agentToken = await createAgentToken(service, agentId);
    const remote = (path: string, body?: string) =>
      fetch(`${service.url}/api/v2/agents/${agentId}/files/${path}`, {
        method: body === undefined ? 'GET' : 'PUT',
        headers: {
          Authorization: `Bearer ${ownerToken}`,
          Accept: 'application/octet-stream',
          'Content-Type': 'application/octet-stream',
        },
        ...(body === undefined ? {} : { body }),
      });
    await remote('theirs.txt', 'the agent wrote this');
    const folder = join(scratch, 'folder');
    await mkdir(join(folder, 'work'), { recursive: true });
    await writeFile(join(folder, 'work/mine.txt'), 'I wrote this');

    const sync = () =>
      agentdesk(['sync', folder, '--agent', agentId, '--token', agentToken, '--once', ...server()]);
    const first = await sync();
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out + first.err).toMatch(/only uploads/);
    expect(await (await remote('mine.txt')).text()).toBe('I wrote this');
    expect(await readFile(join(folder, 'work/mine.txt'), 'utf8')).toBe('I wrote this');
    // Not downloadable here: left on the agent, and nothing local stands in for it.
    expect(await (await remote('theirs.txt')).text()).toBe('the agent wrote this');
    expect(existsSync(join(folder, 'work/theirs.txt'))).toBe(false);

    const again = await sync();
    expect(again.code).toBe(0);
    expect(await readFile(join(folder, 'work/mine.txt'), 'utf8')).toBe('I wrote this');
    expect(await (await remote('theirs.txt')).text()).toBe('the agent wrote this');
    expect(existsSync(join(folder, 'instructions.md'))).toBe(true);
  });
});
