/**
 * Issue 12: a download replaces a file that another program is reading. A separate process reads
 * the path as fast as it can while the engine downloads the agent's versions over it: every read
 * is one whole version (never a mix, never a torn or empty file), and the file is never missing:
 * checked-replace.ts keeps the old file by a hard link and renames the new one over it (issue 26).
 * Real local service, real disk, a real second process.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSyncWorld, type SyncWorld } from './sync-harness';

let world: SyncWorld;
beforeEach(async () => {
  world = await createSyncWorld();
});
afterEach(async () => {
  await world.close();
});

/** Reads the file in a tight loop until the stop file appears; prints what it saw, by content. */
const readerScript = `
const fs = require('node:fs');
const [path, stop] = process.argv.slice(1);
const seen = {};
let missing = 0;
for (let n = 0; ; n += 1) {
  if (n % 200 === 0 && fs.existsSync(stop)) break;
  try {
    const text = fs.readFileSync(path, 'utf8');
    seen[text] = (seen[text] ?? 0) + 1;
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    missing += 1;
  }
}
process.stdout.write(JSON.stringify({ seen, missing }));
`;

/** A version whose every line names it, so a mix of two versions cannot pass for either. */
const version = (n: number) => `version ${n}\n`.repeat(4000 + n);

describe('a reader while downloads replace the file', () => {
  it('reads one whole version every time, old or new, never a mix', async () => {
    const replaces = 25;
    await world.remote.write('work/read-me.txt', version(0));
    const engine = world.engine({ settleMs: 0 });
    await engine.start();
    const stop = join(world.root, '..', 'stop-reading');
    const reader = spawn(process.execPath, ['-e', readerScript, join(world.root, 'work/read-me.txt'), stop]);
    let output = '';
    reader.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    for (let n = 1; n <= replaces; n += 1) {
      await world.remote.write('work/read-me.txt', version(n));
      const status = await engine.syncNow();
      expect(status.state).toBe('idle');
    }
    await writeFile(stop, '');
    const [code] = await once(reader, 'exit');
    expect(code).toBe(0);
    const { seen, missing } = JSON.parse(output) as { seen: Record<string, number>; missing: number };
    const written = new Set(Array.from({ length: replaces + 1 }, (_, n) => version(n)));
    const reads = Object.entries(seen);
    expect(reads.filter(([text]) => !written.has(text))).toEqual([]);
    // The reader saw the file change under it many times, so the replaces ran while it read.
    expect(reads.length).toBeGreaterThan(replaces / 2);
    expect(await world.local.read('work/read-me.txt')).toBe(version(replaces));
    expect(missing).toBe(0);
    console.log(
      `reader: ${reads.reduce((sum, [, count]) => sum + count, 0)} reads, ${reads.length} versions seen, ` +
        `${missing} reads found no file over ${replaces} replaces`,
    );
  });
});
