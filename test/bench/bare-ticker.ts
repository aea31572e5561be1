import { spawn } from 'node:child_process';

/**
 * The machine's own floor for an event-loop stall: a Node process that does nothing but tick a 1 ms timer,
 * run beside a measured window. On a busy virtual machine its timer, too, can go unserved for tens of
 * milliseconds with its thread neither running nor waiting in the run queue (seen here: 67 ms beside two
 * busy loops), so a stall that long says nothing of the code measured, while one well beyond it does.
 */
export interface BareTicker {
  pid: number;
  /** Its timer has ticked once: the window can start. */
  ticking: Promise<void>;
  /** Ends the ticker: its longest gap between two ticks, ms. */
  stop(): Promise<number>;
}

const TICKER = `
let last = performance.now();
let longest = 0;
process.stdout.write('ticking\\n');
setInterval(() => {
  const now = performance.now();
  longest = Math.max(longest, now - last);
  last = now;
}, 1);
process.stdin.on('end', () => process.stdout.write(longest + '\\n', () => process.exit(0)));
process.stdin.resume();
`;

export function startBareTicker(): BareTicker {
  const child = spawn(process.execPath, ['-e', TICKER], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  let started!: () => void;
  const ticking = new Promise<void>((resolve) => (started = resolve));
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    output += text;
    if (output.startsWith('ticking\n')) started();
  });
  const ended = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      started(); // nobody waits for a ticker that is gone
      const figure = output.split('\n')[1] ?? '';
      const longest = Number(figure);
      if (figure.trim() && Number.isFinite(longest)) resolve(longest);
      else reject(new Error(`the bare ticker gave no figure (exit ${code ?? signal})`));
    });
  });
  ended.catch(() => undefined); // a ticker that died early fails its stop(), not the process
  child.stdin.on('error', () => undefined); // its stdin closed under it: the exit says what happened
  return {
    pid: child.pid!,
    ticking,
    stop: () => {
      child.stdin.end();
      return ended;
    },
  };
}
