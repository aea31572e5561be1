import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { storeConfig } from './test-store';
import { promisify } from 'node:util';

/**
 * The local service as a real child process (`npm run service`), so a test can kill it with SIGKILL, as a
 * crash or an OOM kill would, and start it again on the same port and data.
 */

/**
 * Node's arguments that run `npm run service` without npm's banner: `src/service/cli.ts` under tsx, or,
 * under `npm test`, the bundle the build stage has just made of it (out/node/service.js, named in
 * $AGENTDESK_TEST_SERVICE_JS), as `npm run service` runs it when the build is fresh: tsx compiling the
 * service again for each start cost seconds of CPU.
 */
export const serviceFromSource: readonly string[] = process.env['AGENTDESK_TEST_SERVICE_JS']
  ? [process.env['AGENTDESK_TEST_SERVICE_JS']]
  : // tsx by its path: Node resolves `--import tsx` from the child's folder, a temporary one in some tests.
    [
      '--import',
      pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
      fileURLToPath(new URL('../../src/service/cli.ts', import.meta.url)),
    ];

const run = promisify(execFile);

/** `npm run service -- <args>` (an admin command, or a start that must fail) run to its end. */
export async function serviceCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // An admin command works on the store of the data folder it names: on the PostgreSQL pass, through
  // DATABASE_URL, as the README tells admins to.
  const data = args[args.indexOf('--data') + 1];
  const { database } = args.includes('--data') && data ? await storeConfig(data) : {};
  const env = database ? { ...process.env, DATABASE_URL: database } : process.env;
  try {
    const { stdout, stderr } = await run(process.execPath, [...serviceFromSource, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

export interface ServiceProcess {
  url: string;
  /** The service's own process (Node runs it directly, no npm or tsx parent). */
  pid: number;
  /** Everything the service printed. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * A free TCP port on 127.0.0.1 (free when asked; the service takes it moments later, and again after a
 * restart). Taken below the system's ephemeral range: a port from that range is also handed to any
 * outgoing connection on a busy machine, so between the ask and the start (or a kill and the restart)
 * another process could take it (EADDRINUSE failed chat-restart.test.ts so in a full run).
 */
export async function freePort(): Promise<number> {
  const [ephemeralStart] = ephemeralRange();
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = 10_000 + Math.floor(Math.random() * (ephemeralStart - 10_000));
    if (await bindable(port)) return port;
  }
  throw new Error('no free port below the ephemeral range');
}

function ephemeralRange(): [number, number] {
  try {
    const [start, end] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    if (Number(start) > 11_000) return [Number(start), Number(end)];
  } catch {
    // Not Linux: macOS and Windows hand out 49152 and up.
  }
  return [49_152, 65_535];
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export async function startServiceProcess(
  options: { port: number; dataDir: string; args?: string[]; env?: Record<string, string> },
  timeoutMs = 30_000,
): Promise<ServiceProcess> {
  const { database } = await storeConfig(options.dataDir);
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...serviceFromSource,
      '--port',
      String(options.port),
      '--data',
      options.dataDir,
      ...(database ? ['--database', database] : []),
      ...(options.args ?? []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } },
  );
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start:\n${output}`)), timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then(() => reject(new Error(`the service exited at start:\n${output}`)));
  });
  return {
    url,
    pid: child.pid ?? 0,
    output: () => output,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
