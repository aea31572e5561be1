import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { postgresBinDir } from './postgres-binaries';
import { freePort } from './service-process';

/**
 * One throwaway PostgreSQL cluster per test run, a fresh database per test file.
 *
 * The run's global setup (postgres-run.ts, for vitest and Playwright alike) only names a folder in
 * $AGENTDESK_TEST_POSTGRES; the first worker that asks for a database makes the cluster there, so a run
 * that never touches PostgreSQL pays nothing for it. Workers are separate processes: the one that
 * creates the folder (mkdir is atomic) starts the cluster and writes its address; the others wait for
 * that file. The global teardown stops the cluster and removes the folder.
 *
 * initdb refuses to run as root, so as root every PostgreSQL program runs as an unprivileged user
 * (postgres, else nobody) that owns the folder. fsync is off: the data is thrown away anyway.
 */

const run = promisify(execFile);

const runDirVariable = 'AGENTDESK_TEST_POSTGRES';

interface ClusterAddress {
  /** The superuser's URL to the maintenance database. */
  adminUrl: string;
}

let ours: Promise<ClusterAddress> | undefined;

/** A new, empty database on the run's cluster; its postgres:// URL. */
export async function freshDatabase(): Promise<string> {
  const { adminUrl } = await cluster();
  const name = `t_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The run's cluster, started by whichever worker asks first. */
export function cluster(): Promise<ClusterAddress> {
  ours ??= joinOrStart();
  return ours;
}

function runDir(): string {
  const dir = process.env[runDirVariable];
  if (!dir) {
    throw new Error(
      `${runDirVariable} is not set: run the tests through vitest or Playwright (their global setup, ` +
        'test/support/postgres-run.ts, names the cluster folder)',
    );
  }
  return dir;
}

async function joinOrStart(): Promise<ClusterAddress> {
  const dir = runDir();
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return waitForAddress(dir);
  }
  try {
    const address = await startCluster(dir);
    writeFileAtomically(join(dir, 'address.json'), JSON.stringify(address));
    return address;
  } catch (error) {
    writeFileAtomically(join(dir, 'failed.txt'), String((error as Error).stack ?? error));
    throw error;
  }
}

async function waitForAddress(dir: string, timeoutMs = 180_000): Promise<ClusterAddress> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(join(dir, 'address.json'))) {
      return JSON.parse(readFileSync(join(dir, 'address.json'), 'utf8')) as ClusterAddress;
    }
    if (existsSync(join(dir, 'failed.txt'))) {
      throw new Error(
        `the test PostgreSQL cluster did not start:\n${readFileSync(join(dir, 'failed.txt'), 'utf8')}`,
      );
    }
    if (Date.now() > deadline) throw new Error(`the test PostgreSQL cluster in ${dir} was not ready in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function writeFileAtomically(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/** The user PostgreSQL runs as when we are root; undefined when we are not. */
function unprivilegedUser(): { name: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  for (const name of ['postgres', 'nobody']) {
    const fields = passwd.find((line) => line.startsWith(`${name}:`))?.split(':');
    if (fields) return { name, uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new Error('running as root, and there is neither a postgres nor a nobody user to run PostgreSQL as');
}

async function startCluster(dir: string): Promise<ClusterAddress> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL's server is not installed: apt-get install postgresql");
  const user = unprivilegedUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const asUser = (program: string, args: string[]): Promise<unknown> => {
    const path = join(bin, program);
    return user ? run('runuser', ['-u', user.name, '--', path, ...args]) : run(path, args);
  };
  const data = join(dir, 'data');
  await asUser('initdb', [
    ...['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale'],
    ...['--no-sync', '--no-instructions'],
  ]);
  const port = await freePort();
  const settings = [
    ...['-c listen_addresses=127.0.0.1', `-p ${port}`, `-k ${dir}`],
    // Thrown away at the end of the run: nothing needs to reach the disk.
    ...['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'],
    // Several service processes, each with a pool, and the tests' own clients.
    '-c max_connections=400',
  ].join(' ');
  // -w: pg_ctl returns once the server accepts connections (it tries them itself).
  await asUser('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-t',
    '180',
    '-o',
    settings,
    'start',
  ]);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await untilConnectable(adminUrl);
  return { adminUrl };
}

async function untilConnectable(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Names the run's cluster folder (nothing starts until a test asks). */
export function nameRunCluster(): string {
  const dir = join(tmpdir(), `agentdesk-pg-${process.pid}-${Date.now().toString(36)}`);
  process.env[runDirVariable] = dir;
  return dir;
}

/** Stops the run's cluster if a test started one, and removes its folder. */
export async function stopRunCluster(dir: string): Promise<void> {
  const data = join(dir, 'data');
  if (existsSync(join(data, 'postmaster.pid'))) {
    const bin = postgresBinDir();
    const user = unprivilegedUser();
    const args = ['-D', data, '-m', 'immediate', '-w', 'stop'];
    const path = join(bin ?? '', 'pg_ctl');
    await (user ? run('runuser', ['-u', user.name, '--', path, ...args]) : run(path, args)).catch(
      (error: unknown) => console.error(`could not stop the test PostgreSQL cluster: ${String(error)}`),
    );
  }
  rmSync(dir, { recursive: true, force: true });
}
