import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { hiddenField } from '../../../support/local-service';
import {
  freePort,
  serviceCli,
  startServiceProcess,
  type ServiceProcess,
} from '../../../support/service-process';

export { serviceCli };

/**
 * The service as it runs on a server: a real `npm run service` process per start, its admin commands, and
 * an HTTP client that can speak as a reverse proxy would (any Host, X-Forwarded-* headers) with a cookie jar.
 */

/** Each service start takes seconds on a busy machine. */
export const SLOW = 120_000;
export const PUBLIC_URL = 'https://agents.example.com';
export const ADMIN = { email: 'admin@example.test', password: 'a long admin password' };

// Cleanups hang on the test that made the thing (the last made is undone first: a service is killed
// before its data folder goes), not on a hook of this module, which loads once for many files.

/** A fresh data folder, with `config` written as its config.json when given; deleted after the test. */
export async function dataDir(config?: object): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentdesk-server-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  if (config) await writeFile(join(dir, 'config.json'), JSON.stringify(config));
  return dir;
}

/** A running service process on a free port; killed after the test. */
export async function startServer(
  data: string,
  args: string[] = [],
): Promise<ServiceProcess & { port: number }> {
  const port = await freePort();
  const service = await startServiceProcess({ port, dataDir: data, args });
  onTestFinished(() => service.kill('SIGKILL'));
  return Object.assign(service, { port });
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** HTTP over node:http (fetch cannot set Host), sending `headers` on every request and keeping cookies. */
export class ProxyClient {
  readonly cookies = new Map<string, string>();
  readonly setCookies: string[] = [];
  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.send('GET', path, headers);
  }

  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
    const body = new URLSearchParams(fields).toString();
    return this.send('POST', path, { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body);
  }

  /** Signs in through the form; the answer's status says how it went (303 signed in, 401 wrong, 429 wait). */
  async signIn(email: string, password: string, headers: Record<string, string> = {}): Promise<Answer> {
    const page = await this.get('/signin?next=%2Faccount', headers);
    if (page.status !== 200)
      throw new Error(`GET /signin answered ${page.status}: ${page.body.slice(0, 200)}`);
    const fields = { csrf: hiddenField(page.body, 'csrf'), next: '/account', email, password };
    return this.post('/signin', fields, headers);
  }

  private send(method: string, path: string, extra: Record<string, string>, body?: string): Promise<Answer> {
    const url = new URL(this.url);
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers: Record<string, string> = {
      ...this.headers,
      ...extra,
      ...(cookie ? { Cookie: cookie } : {}),
    };
    if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
    return new Promise((done, reject) => {
      const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          for (const line of res.headers['set-cookie'] ?? []) {
            this.setCookies.push(line);
            const [pair = ''] = line.split(';');
            const at = pair.indexOf('=');
            this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
          }
          done({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }
}

/** Makes the admin's account with `user add`, as the README says to on a public server. */
export async function addAdmin(data: string): Promise<void> {
  const made = await serviceCli([
    'user',
    'add',
    '--email',
    ADMIN.email,
    '--password',
    ADMIN.password,
    '--data',
    data,
  ]);
  if (made.code !== 0) throw new Error(`user add failed: ${made.stderr}`);
}
