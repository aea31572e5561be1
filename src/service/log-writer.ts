/** How long a log line may wait for others to share its write. */
const FLUSH_AFTER_MS = 25;
const FLUSH_AT_CHARS = 64 * 1024;

/**
 * The service's log (one line per request) written to stdout in batches: a write to a pipe is a synchronous
 * system call per line on Linux, which at 1,000 requests a second cost the service more CPU than answering
 * them. Lines keep their order; `flush` writes what waits (before exit).
 */
export function batchedLog(write: (text: string) => void = (text) => void process.stdout.write(text)) {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  return {
    log(line: string): void {
      pending += `${line}\n`;
      if (pending.length >= FLUSH_AT_CHARS) flush();
      else timer ??= setTimeout(flush, FLUSH_AFTER_MS).unref();
    },
    flush,
  };
}
