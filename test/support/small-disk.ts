import { execFile } from 'node:child_process';
import { mkdtemp, open, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A real small file system (a tmpfs) for full-disk tests (issue 38). Mounting needs root on Linux; where it
 * cannot mount, `mountSmallDisk` answers why, and the test is skipped with that reason in its name.
 */
export interface SmallDisk {
  /** The mounted folder. */
  dir: string;
  /** Fills what is left with one file, so the next write that needs a block fails with ENOSPC. */
  fill(): Promise<void>;
  /** Removes the filler: there is space again. */
  free(): Promise<void>;
  /** Unmounts and removes the folder (always call, in afterAll). */
  unmount(): Promise<void>;
}

export async function mountSmallDisk(megabytes: number): Promise<SmallDisk | { cannot: string }> {
  if (process.platform !== 'linux')
    return { cannot: `mounting a tmpfs needs Linux, not ${process.platform}` };
  const dir = await mkdtemp(join(tmpdir(), 'agentdesk-small-disk-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir]);
  } catch (error) {
    await rmdir(dir).catch(() => undefined);
    const said = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    return { cannot: `cannot mount a tmpfs here (${said})` };
  }
  const filler = join(dir, '.filler');
  return {
    dir,
    async fill() {
      const handle = await open(filler, 'a');
      const block = Buffer.alloc(64 * 1024);
      try {
        for (;;) await handle.write(block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        await handle.close();
      }
      // The last blocks: tmpfs may take a partial block after a full one is refused.
      const tail = await open(filler, 'a');
      try {
        for (;;) await tail.write(Buffer.alloc(512));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        await tail.close();
      }
    },
    free: () => rm(filler, { force: true }),
    async unmount() {
      await run('umount', ['-l', dir]).catch(() => undefined);
      await rmdir(dir).catch(() => undefined);
    },
  };
}
