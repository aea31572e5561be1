import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import { runCli } from '../../../src/cli/run-cli';
import { prepare } from '../../../src/service/db/statement';
import type { CliIo } from '../../../src/cli/terminal';
import {
  DEFAULT_EMAIL,
  DEFAULT_PASSWORD,
  ensurePerson,
  firstAgentId,
  signIn,
  startTestService,
  type TestService,
} from '../../support/local-service';
import { walkSignIn } from '../core/support/browser-walk';

// A server's agent names printed by `agentdesk`: the spec only says a name is at most 64 characters, so another
// server may hand out a name with a terminal's escape (set the window title, rewrite lines) or a direction
// override. Ours refuses such a name (PATCH and POST alike), so the test writes it into the store as such a
// server would keep it. The CLI prints them as visible `\u001b` escapes, in the agent list and in "No agent
// called…". Real service over HTTP; a memory secret store plays the OS keychain.

const HOSTILE = 'Evil\u001b]0;owned\u0007\u202Eexe';
let service: TestService;
let dataDir: string;
const secrets = createMemorySecretStore();

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  let walking = false;
  const io: CliIo = {
    out: (text) => void (out += text),
    err: (text) => {
      err += text;
      const url = /http:\/\/127\.0\.0\.1:\d+\/oauth2\/authorize\S+/.exec(err)?.[0];
      if (url && !walking) {
        walking = true;
        void walkSignIn(url, { email: DEFAULT_EMAIL, password: DEFAULT_PASSWORD });
      }
    },
    ask: async () => undefined,
    onInterrupt: () => () => {},
    color: false,
    close: () => {},
  };
  const args = [...argv, '--server', service.url, '--data', dataDir, '--no-open'];
  return { code: await runCli(args, { io, secrets }), out, err };
}

beforeAll(async () => {
  service = await startTestService();
  await ensurePerson(service);
  const token = (await signIn(service)).access_token;
  const agentId = await firstAgentId(service, token);
  const refused = await fetch(`${service.url}/api/v2/agents/${agentId}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: HOSTILE }),
  });
  expect(refused.status).toBe(400);
  await prepare(service.context.db, 'UPDATE agents SET name = ? WHERE id = ?').run(HOSTILE, agentId);
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-cli-names-'));
});
afterAll(async () => {
  await service?.cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

describe('agent names from the server, in the terminal', { timeout: 120_000 }, () => {
  it('are printed with their control characters made visible', async () => {
    expect((await run(['login'])).code).toBe(0);
    const agents = await run(['agents']);
    expect(agents.code).toBe(0);
    expect(agents.out).toContain('Evil\\u001b]0;owned\\u0007\\u202eexe');
    // eslint-disable-next-line no-control-regex
    expect(agents.out).not.toMatch(/[\u001b\u0007\u202e]/);

    const missing = await run(['chat', 'nobody', 'hello']);
    expect(missing.code).not.toBe(0);
    expect(missing.err).toContain('No agent called "nobody"');
    // eslint-disable-next-line no-control-regex
    expect(missing.err).not.toMatch(/[\u001b\u0007\u202e]/);
  });
});
