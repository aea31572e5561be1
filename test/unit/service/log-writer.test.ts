import { describe, expect, it } from 'vitest';
import { batchedLog } from '../../../src/service/log-writer';

describe('batchedLog', () => {
  it('writes lines in order, several to one write, within moments and without a flush', async () => {
    const writes: string[] = [];
    const output = batchedLog((text) => writes.push(text));
    output.log('GET /a 200 1ms');
    output.log('GET /b 200 1ms');
    expect(writes).toEqual([]);
    await expect.poll(() => writes, { timeout: 2000 }).toEqual(['GET /a 200 1ms\nGET /b 200 1ms\n']);
    output.log('GET /c 200 1ms');
    output.flush();
    output.flush();
    expect(writes).toEqual(['GET /a 200 1ms\nGET /b 200 1ms\n', 'GET /c 200 1ms\n']);
  });

  it('writes at once when a batch grows large', () => {
    const writes: string[] = [];
    const output = batchedLog((text) => writes.push(text));
    const line = 'x'.repeat(1000);
    for (let i = 0; i < 70; i++) output.log(line);
    expect(writes.length).toBe(1);
    expect(writes[0]!.split('\n').length - 1).toBeGreaterThanOrEqual(64);
    output.flush();
    expect(writes.join('').split('\n').length - 1).toBe(70);
  });
});
