import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { signIn, startTestService } from '../../../support/local-service';
import { serviceCli, serviceFromSource } from '../../../support/service-process';

// `npm run service`, run directly (npm adds its own banner lines).
const repo = resolve(import.meta.dirname, '../../../..');

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentdesk-cli-'));
  dirs.push(dir);
  return dir;
}

const admin = serviceCli;

// Each service start takes seconds on a busy machine.
const SLOW = 90_000;

describe('service CLI', () => {
  it(
    'prints exactly one listening line, then one line per request without tokens, and stops on SIGTERM',
    async () => {
      const data = await dataDir();
      const child = spawn(process.execPath, [...serviceFromSource, '--port', '0', '--data', data], {
        cwd: repo,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
        const first = (await lines.next()).value as string;
        expect(first).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
        const url = first.slice('listening on '.length);
        const secret = 'not-a-real-token-but-secret';
        const response = await fetch(`${url}/api/v2/me/agents?x=1`, {
          headers: { Authorization: `Bearer ${secret}` },
        });
        expect(response.status).toBe(401);
        const logged = (await lines.next()).value as string;
        expect(logged).toMatch(/^GET \/api\/v2\/me\/agents 401 \d+(\.\d+)?ms$/);
        expect(logged).not.toContain(secret);
        const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
    SLOW,
  );

  it(
    'user add and client add print JSON; the service then knows them',
    async () => {
      const data = await dataDir();
      const user = await admin([
        'user',
        'add',
        '--email',
        'ana@example.test',
        '--password',
        'a long password',
        '--data',
        data,
      ]);
      expect(user.code).toBe(0);
      expect(JSON.parse(user.stdout)).toMatchObject({ email: 'ana@example.test', id: expect.any(String) });

      const again = await admin([
        'user',
        'add',
        '--email',
        'ana@example.test',
        '--password',
        'a long password',
        '--data',
        data,
      ]);
      expect(again.code).toBe(1);
      expect(JSON.parse(again.stderr)).toMatchObject({ error: 'email_taken' });

      const publicClient = await admin([
        'client',
        'add',
        '--name',
        'Phone',
        '--redirect-uri',
        'https://phone.example/cb',
        '--redirect-uri',
        'https://phone.example/cb2',
        '--scopes',
        'agents:read profile',
        '--data',
        data,
      ]);
      expect(publicClient.code).toBe(0);
      const created = JSON.parse(publicClient.stdout) as Record<string, string>;
      expect(Object.keys(created)).toEqual(['client_id']);

      const confidential = await admin([
        'client',
        'add',
        '--name',
        'Backend',
        '--redirect-uri',
        'https://backend.example/cb',
        '--scopes',
        'agents:read',
        '--confidential',
        '--first-party',
        '--data',
        data,
      ]);
      const backend = JSON.parse(confidential.stdout) as Record<string, string>;
      expect(Object.keys(backend).sort()).toEqual(['client_id', 'client_secret']);

      const service = await startTestService({ dataDir: data });
      try {
        const tokens = await signIn(service, {
          email: 'ana@example.test',
          password: 'a long password',
          clientId: created.client_id,
          redirectUri: 'https://phone.example/cb2',
          scopes: ['agents:read', 'files'],
        });
        expect(tokens.scope).toBe('agents:read');
        const fromBackend = await signIn(service, {
          email: 'ana@example.test',
          password: 'a long password',
          clientId: backend.client_id,
          clientSecret: backend.client_secret,
          redirectUri: 'https://backend.example/cb',
        });
        expect(fromBackend.scope).toBe('agents:read');
      } finally {
        await service.cleanup();
      }
    },
    SLOW,
  );

  it(
    'refuses bad admin input with a JSON error',
    async () => {
      const data = await dataDir();
      const missing = await admin(['client', 'add', '--name', 'X', '--data', data]);
      expect(missing.code).toBe(1);
      expect(JSON.parse(missing.stderr)).toMatchObject({ error: 'usage' });
      const bad = await admin([
        'client',
        'add',
        '--name',
        'X',
        '--redirect-uri',
        'not a uri',
        '--scopes',
        '',
        '--data',
        data,
      ]);
      expect(JSON.parse(bad.stderr)).toMatchObject({ error: 'invalid_redirect_uri' });
    },
    SLOW,
  );
});

describe('config file', () => {
  it('registers the clients of <data>/config.json', async () => {
    const data = await dataDir();
    await writeFile(
      join(data, 'config.json'),
      JSON.stringify({
        clients: [
          {
            client_id: 'team-tool',
            name: 'Team tool',
            redirect_uris: ['https://team.example/cb'],
            scopes: 'profile',
          },
        ],
      }),
    );
    const service = await startTestService({ dataDir: data });
    try {
      const tokens = await signIn(service, { clientId: 'team-tool', redirectUri: 'https://team.example/cb' });
      expect(tokens.scope).toBe('profile');
    } finally {
      await service.cleanup();
    }
  });

  it('refuses to start on a malformed config file', async () => {
    const data = await dataDir();
    await writeFile(join(data, 'config.json'), '[1, 2');
    await expect(startTestService({ dataDir: data })).rejects.toThrow();
  });
});

describe('service CLI help', () => {
  it('--help prints the usage and starts nothing: no service, no data folder', async () => {
    const cwd = await dataDir();
    const { stdout } = await promisify(execFile)(process.execPath, [...serviceFromSource, '--help'], {
      cwd,
      timeout: SLOW,
    });
    expect(stdout).toContain('Usage: npm run service --');
    expect(stdout).toContain('user add --email');
    expect(await readdir(cwd)).toEqual([]);
  });
});
