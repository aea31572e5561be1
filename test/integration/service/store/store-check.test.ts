/**
 * A damaged service.db (issue 38, item 4): the service refuses to start with a line naming the file and the
 * check that failed, and never resets the person's data; `npm run service -- check` runs the same check.
 * Real store files made by the real service; damaged as a disk or a crash would (cut short, random bytes,
 * a wrong header, a page overwritten), then the real `npm run service` process.
 */
import Database from 'libsql';
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, open, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeFileProblem } from '../../../../src/service/db/store-check';
import { ensurePerson, startTestService } from '../../../support/local-service';
import { serviceCli } from '../../../support/service-process';

let dir: string;
/** A sound store with a person in it, as a service left it. */
let good: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-store-check-'));
  const service = await startTestService({ dataDir: join(dir, 'made'), config: {} });
  await ensurePerson(service);
  await service.close();
  good = join(dir, 'made', 'service.db');
  // Everything into the file itself (a close may leave the last writes in the WAL), so a copy is whole.
  const db = new Database(good);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A data folder holding a copy of the sound store, damaged by `damage`. */
async function damaged(name: string, damage: (file: string) => Promise<void>): Promise<string> {
  const data = join(dir, name);
  await rm(data, { recursive: true, force: true });
  await mkdir(data, { recursive: true });
  await copyFile(good, join(data, 'service.db'));
  await damage(join(data, 'service.db'));
  return data;
}

const sha = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
const pageSize = async (file: string) => (await readFile(file)).readUInt16BE(16);

describe('the embedded store’s check', { timeout: 180_000 }, () => {
  it('passes a sound store and names what failed in a damaged one', async () => {
    expect(storeFileProblem(good)).toBeNull();
    const cut = await damaged('cut', async (file) => truncate(file, (await pageSize(file)) * 2 + 100));
    expect(storeFileProblem(join(cut, 'service.db'))).toMatch(
      /^the file is cut short \(\d+ bytes is not a whole/,
    );
    const short = await damaged('short', async (file) => truncate(file, (await pageSize(file)) * 2));
    expect(storeFileProblem(join(short, 'service.db'))).toMatch(
      /^the file is cut short \(its header counts \d+ pages, the file holds 2\)/,
    );
    const random = await damaged('random', async (file) => writeFile(file, randomBytes(64 * 1024)));
    expect(storeFileProblem(join(random, 'service.db'))).toMatch(/^the header is not SQLite's/);
    const header = await damaged('header', async (file) => {
      const handle = await open(file, 'r+');
      await handle.write(Buffer.from('SQLite format 2\0'), 0, 16, 0);
      await handle.close();
    });
    expect(storeFileProblem(join(header, 'service.db'))).toMatch(/^the header is not SQLite's/);
    // A page in the middle overwritten: the header holds, SQLite's own check does not.
    const page = await damaged('page', async (file) => {
      const size = await pageSize(file);
      const handle = await open(file, 'r+');
      await handle.write(randomBytes(size), 0, size, size * 3);
      await handle.close();
    });
    expect(storeFileProblem(join(page, 'service.db'))).toMatch(/quick_check|could not read/);
  });

  it('npm run service refuses a damaged store with one line naming the file and the check, and changes nothing', async () => {
    const data = await damaged('refused', async (file) => truncate(file, (await pageSize(file)) * 2 + 100));
    const file = join(data, 'service.db');
    const before = await sha(file);
    const start = await serviceCli(['--port', '0', '--data', data]);
    expect(start.code).toBe(1);
    const line = start.stderr.trim().split('\n').at(-1)!;
    expect(JSON.parse(line)).toEqual({
      error: 'store_damaged',
      detalle: expect.stringMatching(
        new RegExp(
          `^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} failed its check: the file is cut short`,
        ),
      ),
    });
    expect(start.stdout).not.toContain('listening on');
    expect(await sha(file)).toBe(before);

    const check = await serviceCli(['check', '--data', data]);
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stderr.trim()).detalle).toBe(JSON.parse(line).detalle);
    expect(await sha(file)).toBe(before);

    const sound = await serviceCli(['check', '--data', join(dir, 'made')]);
    expect(sound.code).toBe(0);
    expect(JSON.parse(sound.stdout)).toMatchObject({ ok: true, file: good });
  });
});
