import { createInterface, type Interface } from 'node:readline';

/**
 * What the CLI needs from a terminal, so commands run the same against a real
 * TTY, a pipe, or a test's script.
 */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Shows `prompt` and resolves with the next line, or undefined at end of input. */
  ask(prompt: string): Promise<string | undefined>;
  /** Ctrl-C; returns a function that stops listening. */
  onInterrupt(handler: () => void): () => void;
  /** Colours and dim text only on a real terminal. */
  readonly color: boolean;
  close(): void;
}

/** The process's own stdin/stdout/stderr. Lines typed ahead are kept for the next question. */
export function processIo(): CliIo {
  let rl: Interface | undefined;
  const lines: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let ended = false;
  const interruptHandlers = new Set<() => void>();
  const interrupt = (): void => {
    const [latest] = [...interruptHandlers].reverse();
    if (latest) latest();
    else process.exit(130);
  };

  // Created on first use: commands that never read stdin must not hold the process open.
  const reader = (): Interface => {
    if (rl) return rl;
    const created = createInterface({
      input: process.stdin,
      output: process.stdout,
      terminal: !!process.stdin.isTTY,
    });
    created.on('line', (line) => {
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    });
    created.on('close', () => {
      ended = true;
      for (const next of waiting.splice(0)) next(undefined);
    });
    created.on('SIGINT', interrupt);
    rl = created;
    return created;
  };
  process.on('SIGINT', interrupt);

  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    ask(prompt) {
      const input = reader();
      process.stdout.write(prompt);
      if (lines.length > 0) return Promise.resolve(lines.shift());
      if (ended) return Promise.resolve(undefined);
      input.resume();
      return new Promise((resolve) => waiting.push(resolve));
    },
    onInterrupt(handler) {
      interruptHandlers.add(handler);
      return () => interruptHandlers.delete(handler);
    },
    color: !!process.stdout.isTTY && !process.env['NO_COLOR'],
    close() {
      process.off('SIGINT', interrupt);
      rl?.close();
    },
  };
}

/** Dim text on a colour terminal, plain elsewhere. */
export function dim(io: CliIo, text: string): string {
  return io.color ? `\x1b[2m${text}\x1b[22m` : text;
}
