import { describe, expect, it } from 'vitest';
import { startBareTicker } from '../../bench/bare-ticker';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('startBareTicker', () => {
  it('reports the longest gap between its ticks: a real process stopped for 300 ms shows a gap that long', async () => {
    const ticker = startBareTicker();
    await ticker.ticking;
    process.kill(ticker.pid, 'SIGSTOP');
    await sleep(300);
    process.kill(ticker.pid, 'SIGCONT');
    await sleep(50);
    expect(await ticker.stop()).toBeGreaterThanOrEqual(290);
  });

  it('fails in words when the ticker gives no figure', async () => {
    const ticker = startBareTicker();
    process.kill(ticker.pid, 'SIGKILL');
    await expect(ticker.stop()).rejects.toThrow(/gave no figure/);
  });
});
