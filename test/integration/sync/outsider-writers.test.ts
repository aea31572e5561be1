/**
 * Issue 12, "Everyday writers break it" and items 3-4, the way a person meets them: a real
 * `agentdesk sync` watching the folder (cli-harness.ts) while a shell redirect, an rsync-style
 * copy, LibreOffice, vim and JetBrains write into it with their own timing. The proxy in front of
 * the real service (outsider-world.ts) shows that no temp or lock file ever reached the agent.
 * The sleeps here are the writers' own pauses (the scenario); everything else waits on a condition.
 */
import { execFile } from 'node:child_process';
import { rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useOutsiderWorld } from './outsider-world';

const o = useOutsiderWorld();
const { w } = o;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const local = (path: string) => join(w.folder, path);
let sentinels = 0;

/** Waits until the agent holds `text` at `path` (a workspace path). */
const arrives = (path: string, text: string) =>
  w.until(async () => ((await w.readRemote(path)) === text ? true : undefined), 15_000);

/** A later save that reaches the agent: every change before it has been through a cycle. */
async function cycleDone() {
  sentinels += 1;
  await w.writeLocal(`work/sentinel-${sentinels}.txt`, `sentinel ${sentinels}`);
  await arrives(`sentinel-${sentinels}.txt`, `sentinel ${sentinels}`);
}

function expectNoErrors(output: string) {
  expect(output).not.toMatch(/^Error:/m);
  expect(output).not.toMatch(/body is empty/i);
}

describe('everyday writers while `agentdesk sync` watches', () => {
  it('`cmd > file` with a slow cmd (truncate, then the output 400 ms later) uploads the output once', async () => {
    await w.writeLocal('work/existing.txt', 'the old report');
    const cli = await o.watch();
    try {
      await arrives('existing.txt', 'the old report');
      const redirect = (name: string) =>
        promisify(execFile)('sh', ['-c', `{ sleep 0.4; printf 'final output'; } > ${name}`], {
          cwd: local('work'),
        });
      await Promise.all([redirect('new.txt'), redirect('existing.txt')]);
      await arrives('new.txt', 'final output');
      await arrives('existing.txt', 'final output');
      await cycleDone();
      expect(o.requestsFor('PUT', 'new.txt')).toBe(1);
      expect(o.requestsFor('PUT', 'existing.txt')).toBe(2); // the first sync, then the output
      expect(o.requestsFor('DELETE', 'new.txt') + o.requestsFor('DELETE', 'existing.txt')).toBe(0);
    } finally {
      expectNoErrors((await o.stop(cli)).out);
    }
  }, 90_000);

  it('an rsync temp file renamed over its name 400 ms later, and a LibreOffice lock, never reach the agent', async () => {
    const cli = await o.watch();
    try {
      // LibreOffice opens report.odt: its lock file stands beside it while the document is open.
      await w.writeLocal('work/.~lock.report.odt#', ',Person,host,25.11.2026 13:50,file:///x;');
      await writeFile(local('work/report.odt'), 'document v1');
      await arrives('report.odt', 'document v1');
      // rsync writes `.name.XXXXXX`, then renames it over the name.
      await writeFile(local('work/.notes.md.Xa81Zq'), 'copied by rsync');
      await sleep(400);
      await rename(local('work/.notes.md.Xa81Zq'), local('work/notes.md'));
      await arrives('notes.md', 'copied by rsync');
      await writeFile(local('work/report.odt'), 'document v2');
      await arrives('report.odt', 'document v2');
      await unlink(local('work/.~lock.report.odt#')); // LibreOffice closes the document
      await cycleDone();
      for (const temp of ['.notes.md.Xa81Zq', '.~lock.report.odt#']) {
        expect(o.requestsFor('PUT', temp), temp).toBe(0);
        expect(o.requestsFor('DELETE', temp), temp).toBe(0);
      }
      expect(o.requestsFor('PUT', 'notes.md')).toBe(1);
      expect([...(await o.remoteFiles()).keys()].filter((p) => !p.startsWith('sentinel'))).toEqual([
        'notes.md',
        'report.odt',
      ]);
    } finally {
      expectNoErrors((await o.stop(cli)).out);
    }
  }, 90_000);

  it("vim's save (swap file, 4913 probe, backup rename, new file) is one upload; no swap or backup is sent", async () => {
    await w.writeLocal('work/plan.md', 'plan v1');
    const cli = await o.watch();
    try {
      await arrives('plan.md', 'plan v1');
      await writeFile(local('work/.plan.md.swp'), 'vim swap, written while editing');
      await cycleDone();
      await writeFile(local('work/.plan.md.swp'), 'vim swap, updated');
      // :w with `backup` on, as vim does it: probe the folder, move the original to the backup
      // name, write the new file in its place.
      await writeFile(local('work/4913'), '');
      await unlink(local('work/4913'));
      await rename(local('work/plan.md'), local('work/plan.md~'));
      await writeFile(local('work/plan.md'), 'plan v2, saved in vim');
      await arrives('plan.md', 'plan v2, saved in vim');
      await rm(local('work/.plan.md.swp')); // :q
      await cycleDone();
      for (const temp of ['.plan.md.swp', 'plan.md~', '4913'])
        expect(o.requestsFor('PUT', temp) + o.requestsFor('DELETE', temp), temp).toBe(0);
      expect(o.requestsFor('DELETE', 'plan.md')).toBe(0);
      expect(o.requestsFor('PUT', 'plan.md')).toBe(2);
    } finally {
      expectNoErrors((await o.stop(cli)).out);
    }
  }, 90_000);

  it('JetBrains safe write and a VS Code style atomic save (temp, then rename over) are one upload each', async () => {
    await w.writeLocal('work/Main.kt', 'fun main() {}');
    await w.writeLocal('work/app.ts', 'export {}');
    const cli = await o.watch();
    try {
      await arrives('Main.kt', 'fun main() {}');
      await arrives('app.ts', 'export {}');
      // JetBrains: write `name___jb_tmp___`, move the original to `name___jb_old___`, rename, delete.
      await writeFile(local('work/Main.kt___jb_tmp___'), 'fun main() = println("hi")');
      await rename(local('work/Main.kt'), local('work/Main.kt___jb_old___'));
      await rename(local('work/Main.kt___jb_tmp___'), local('work/Main.kt'));
      await unlink(local('work/Main.kt___jb_old___'));
      // An atomic save: the new bytes in a `.tmp` beside the file, renamed over it.
      await writeFile(local('work/app.ts.4f2a.tmp'), 'export const saved = true;');
      await rename(local('work/app.ts.4f2a.tmp'), local('work/app.ts'));
      await arrives('Main.kt', 'fun main() = println("hi")');
      await arrives('app.ts', 'export const saved = true;');
      await cycleDone();
      for (const temp of ['Main.kt___jb_tmp___', 'Main.kt___jb_old___', 'app.ts.4f2a.tmp'])
        expect(o.requestsFor('PUT', temp) + o.requestsFor('DELETE', temp), temp).toBe(0);
      expect(o.requestsFor('DELETE', 'Main.kt') + o.requestsFor('DELETE', 'app.ts')).toBe(0);
      expect(o.requestsFor('PUT', 'Main.kt')).toBe(2);
      expect(o.requestsFor('PUT', 'app.ts')).toBe(2);
    } finally {
      expectNoErrors((await o.stop(cli)).out);
    }
  }, 90_000);
});
