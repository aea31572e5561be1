import { readdir, readFile } from 'node:fs/promises';

/** What /proc says of one process: resident memory and open file descriptors (Linux only). */
export interface ProcessSample {
  rssMb: number;
  fds: number;
}

export async function sampleProcess(pid: number): Promise<ProcessSample | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    const fds = (await readdir(`/proc/${pid}/fd`)).length;
    return { rssMb: Math.round(rssKb / 102.4) / 10, fds };
  } catch {
    return null;
  }
}

/** "RSS 81.2 MB, 34 fds" or "not running". */
export const describeSample = (sample: ProcessSample | null): string =>
  sample ? `RSS ${sample.rssMb} MB, ${sample.fds} fds` : 'not running';

/** Growth from the first sample to the last, in percent of the first ("+4 %"). */
export function growth(first: ProcessSample | null, last: ProcessSample | null): string {
  if (!first || !last) return 'n/a';
  const rss = ((last.rssMb - first.rssMb) / first.rssMb) * 100;
  const fds = ((last.fds - first.fds) / first.fds) * 100;
  const sign = (n: number) => `${n >= 0 ? '+' : ''}${Math.round(n)} %`;
  return `RSS ${sign(rss)}, fds ${sign(fds)}`;
}
