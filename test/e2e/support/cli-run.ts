import { spawn, type ChildProcessWithoutNullStreams, type SpawnOptions } from 'node:child_process';

/** An `agentdesk` process as a test watches it: its output, its exit, and the sign-in address it prints. */
export interface CliRun {
  child: ChildProcessWithoutNullStreams;
  output: () => { out: string; err: string };
  exited: Promise<number | null>;
  /** The browser sign-in address, once the CLI prints it (on stderr). */
  signInUrl: Promise<string>;
}

/** Starts `command args…` (the source CLI through node, or an installed `agentdesk`), with NO_COLOR set. */
export function runCli(
  command: string,
  args: string[],
  options: Pick<SpawnOptions, 'cwd' | 'env'> = {},
): CliRun {
  const child = spawn(command, args, {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: { ...process.env, ...options.env, NO_COLOR: '1' },
    stdio: 'pipe',
  }) as ChildProcessWithoutNullStreams;
  let out = '';
  let err = '';
  let foundUrl!: (url: string) => void;
  const signInUrl = new Promise<string>((r) => (foundUrl = r));
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    const url = /http:\/\/127\.0\.0\.1:\d+\/oauth2\/authorize\S+/.exec(err)?.[0];
    if (url) foundUrl(url);
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => ({ out, err }), exited, signInUrl };
}
