import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import type { SecretStore } from '../../../src/core/auth/secret-store';
import { runCli } from '../../../src/cli/run-cli';
import type { CliIo } from '../../../src/cli/terminal';
import { CookieBrowser } from '../../support/local-service';

// The CLI's commands run in-process against the real local service it starts itself ("this computer",
// with the demo agent), real loopback listeners and real files. Between runs, one memory secret store
// plays the OS keychain (there is none on a test machine). The person is a scripted terminal; the
// browser step is a cookie-keeping HTTP client on the service's first-run page, then the loopback callback.
// The service is started with no trust in the CLI (trustedLaunch: false), so this walks the browser sign-in;
// cli-trusted.test.ts covers the default, passwordless one.

const EMAIL = 'cli@example.test';
const PASSWORD = 'a long enough password';
let dataDir: string;
let secrets: SecretStore;
let browser: CookieBrowser | undefined;

interface Script {
  answers?: string[];
  /** Presses Ctrl-C once when the output contains this text. */
  interruptOn?: string;
}

async function browseTo(url: string): Promise<void> {
  const authorize = new URL(url);
  browser ??= new CookieBrowser(authorize.origin);
  let page = await browser.get(authorize.pathname + authorize.search);
  for (let step = 0; step < 8; step += 1) {
    if (page.status === 302 || page.status === 303) {
      const location = new URL(page.headers.get('location')!, authorize.origin);
      if (location.origin !== authorize.origin) {
        // The loopback callback: a real browser would follow it, so do we.
        const done = await fetch(location);
        expect(await done.text()).toMatch(/signed in/i);
        return;
      }
      page = await browser.get(location.pathname + location.search);
      continue;
    }
    const html = await page.text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const next = /name="next" value="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? '';
    if (html.includes('action="/first-run"')) {
      page = await browser.post('/first-run', {
        csrf,
        next,
        email: EMAIL,
        password: PASSWORD,
        password2: PASSWORD,
      });
    } else if (html.includes('action="/signin"')) {
      page = await browser.post('/signin', { csrf, next, email: EMAIL, password: PASSWORD });
    } else {
      throw new Error(`unexpected page: ${html.slice(0, 300)}`);
    }
  }
  throw new Error('the sign-in did not come back');
}

async function run(argv: string[], script: Script = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const answers = [...(script.answers ?? [])];
  const interrupts = new Set<() => void>();
  let interrupted = false;
  const check = (): void => {
    if (!interrupted && script.interruptOn && out.includes(script.interruptOn)) {
      interrupted = true;
      for (const handler of interrupts) handler();
    }
  };
  const io: CliIo = {
    out: (text) => {
      out += text;
      check();
    },
    err: (text) => {
      err += text;
      const url = /https?:\/\/\S+\/oauth2\/authorize\S+/.exec(text)?.[0];
      if (url) void browseTo(url);
    },
    ask: async (prompt) => {
      out += prompt;
      return answers.shift();
    },
    onInterrupt: (handler) => {
      interrupts.add(handler);
      return () => interrupts.delete(handler);
    },
    color: false,
    close: () => {},
  };
  // `sync` opens no browser, so it takes no --no-open.
  const extra = argv[0] === 'sync' ? ['--data', dataDir] : ['--data', dataDir, '--no-open'];
  const code = await runCli([...argv, ...extra], { io, secrets, trustedLaunch: false });
  return { code, out, err };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-cli-'));
  secrets = createMemorySecretStore();
});
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

describe('agentdesk CLI', () => {
  it('says how to sync when neither a sign-in nor an agent token is there', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agentdesk-cli-sync-'));
    try {
      const refused = await run(['sync', folder, '--agent', 'some-agent', '--once']);
      expect(refused.code).toBe(2);
      expect(refused.err).toMatch(/Sign in with agentdesk login, or give --server and an agent token/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('says who is signed in, signs in through the browser, and lists agents', async () => {
    const before = await run(['whoami']);
    expect(before.code).toBe(1);
    // This service wants a password, so whoami opens no browser: it says what to run.
    expect(before.out).toBe('Not signed in to This computer. Run `agentdesk login` to sign in.\n');

    const login = await run(['login']);
    expect(login.err).toMatch(
      /Open this address in your browser to sign in:\n {2}http:\/\/127\.0\.0\.1:\d+\/oauth2\/authorize\?/,
    );
    expect(login.out).toMatch(new RegExp(`^Signed in to This computer as ${EMAIL}\\.`));
    expect(login.code).toBe(0);

    const who = await run(['whoami']);
    expect(who.out).toContain(EMAIL);
    expect(who.out).toMatch(/Scopes: .*agents:write/);

    const agents = await run(['agents']);
    expect(agents.code).toBe(0);
    expect(agents.out).toMatch(/^\S+\t\S.*$/m);
  });

  it('streams a reply, and answers a permission question asked in the terminal', async () => {
    const agentName = (await run(['agents'])).out.split('\n')[0]!.split('\t')[1]!;
    const chat = await run(['chat', agentName, 'hello there']);
    expect(chat.code).toBe(0);
    expect(chat.err).toMatch(/Conversation \S+/);
    expect(chat.out).toContain('hello there');

    const write = await run(['chat', agentName, 'write notes.txt\n```\nfrom the cli\n```'], {
      answers: ['1'],
    });
    expect(write.out).toMatch(/The agent asks: /);
    expect(write.out).toMatch(/ {2}1\) .+\n {2}2\) /);
    expect(write.out).toMatch(/Choose 1-\d \(y allows once, n denies\): /);
    expect(write.out).toMatch(/⚙ .*notes\.txt/);
    expect(write.code).toBe(0);
    // The approved write reached the agent's workspace on disk.
    const written = await findFile(join(dataDir, 'local-service'), 'notes.txt');
    expect(written && (await readFile(written, 'utf8'))).toContain('from the cli');
  });

  it('shows a reply carrying terminal escape sequences as visible text, never obeyed', async () => {
    const agentName = (await run(['agents'])).out.split('\n')[0]!.split('\t')[1]!;
    // ESC ] 0 sets the window title; ESC [ 2 J clears the screen; U+202E reverses what follows.
    const hostile = 'echo title \u001b]0;pwned\u0007 clear \u001b[2J name invoice\u202efdp.exe';
    const chat = await run(['chat', agentName, hostile]);
    expect(chat.code).toBe(0);
    expect(chat.out).toContain('title \\u001b]0;pwned\\u0007 clear \\u001b[2J name invoice\\u202efdp.exe');
    // eslint-disable-next-line no-control-regex
    expect(chat.out).not.toMatch(/[\u001b\u0007\u202e]/);
  });

  it('syncs a folder with the signed-in account, no agent token needed', async () => {
    const agentId = (await run(['agents'])).out.split('\t')[0]!;
    const folder = await mkdtemp(join(tmpdir(), 'agentdesk-cli-sync-'));
    try {
      await mkdir(join(folder, 'work'), { recursive: true });
      await writeFile(join(folder, 'work', 'from-cli-sync.txt'), 'synced with my own sign-in');
      const synced = await run(['sync', folder, '--agent', agentId, '--once']);
      expect(synced.err).toBe('');
      expect(synced.code).toBe(0);
      expect(synced.out).toContain(`Syncing ${folder} with`);
      const uploaded = await findFile(join(dataDir, 'local-service'), 'from-cli-sync.txt');
      expect(uploaded && (await readFile(uploaded, 'utf8'))).toBe('synced with my own sign-in');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('cancels the running turn on Ctrl-C', async () => {
    const agentName = (await run(['agents'])).out.split('\n')[0]!.split('\t')[1]!;
    const chat = await run(['chat', agentName, 'wait 60'], { interruptOn: 'Wait 60 s' });
    expect(chat.err).toContain('(cancelling');
    expect(chat.code).toBe(130);
  });

  it('reads several messages in one conversation until end of input, then signs out', async () => {
    const agentName = (await run(['agents'])).out.split('\n')[0]!.split('\t')[1]!;
    const chat = await run(['chat', agentName], { answers: ['first message', 'echo second'] });
    expect(chat.code).toBe(0);
    expect(chat.out.match(/you> /g)).toHaveLength(3);
    expect(chat.out).toContain('second');

    expect((await run(['logout'])).out).toBe('Signed out.\n');
    expect((await run(['whoami'])).code).toBe(1);
    expect((await run(['nonsense'])).code).toBe(2);
  });
});

async function findFile(root: string, name: string): Promise<string | undefined> {
  const { readdir } = await import('node:fs/promises');
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  const hit = entries.find((e) => e.isFile() && e.name === name);
  return hit ? join(hit.parentPath, hit.name) : undefined;
}
