import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A 32-byte key kept in `<dataDir>/keys/<name>.key` (mode 0600), created on first use. Keys sign URLs and
 * seal third-party tokens; they must survive restarts so URLs stay valid for their 6 hours.
 */
export async function loadOrCreateKey(dataDir: string, name: string): Promise<Buffer> {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`bad key name: ${name}`);
  const dir = path.join(dataDir, 'keys');
  const file = path.join(dir, `${name}.key`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    const handle = await open(file, 'wx', 0o600);
    const key = randomBytes(32);
    try {
      await handle.writeFile(key.toString('base64'));
      await handle.sync();
    } finally {
      await handle.close();
    }
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}
