/**
 * The CLI's sync (`agentdesk sync --once`, its own process) killed with SIGKILL while it downloads and
 * uploads (issue 38, item 2), against the real local service. Each round the agent rewrites some files and
 * the person others, several MB in all; the sync is killed a seeded moment after it says it is syncing
 * them. Right after the kill, every file on each side is its old or its new content, whole. The next run
 * finishes (exit 0) with no conflict, the latest version of every file on both sides, and no temporary
 * file or conflict copy left in the person's folder.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crashRandom } from './crash-seed';
import { useCliWorld } from '../sync/cli-harness';

const w = useCliWorld();
const random = crashRandom('sync-kill');
const ROUNDS = 3;
const FROM_AGENT = ['down/a.bin', 'down/b.bin', 'down/deep/c.bin', 'down/d.bin'];
const FROM_PERSON = ['up/e.bin', 'up/f.bin', 'up/deep/g.bin', 'up/h.bin'];

/** Bytes naming their file and version on every line, so a mix of two versions shows. */
const content = (path: string, version: number, kb: number) =>
  Buffer.alloc(kb * 1024, `${path} version ${version}\n`);
const versionOf = (bytes: Buffer | undefined) =>
  bytes ? (/version (\d+)/.exec(bytes.subarray(0, 200).toString())?.[1] ?? 'unreadable') : 'absent';

/** Every file name under the folder, relative, the sync's own `.agentdesk` folder left out. */
async function namesIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(folder.length + 1))
    .filter((name) => !name.startsWith('.agentdesk/'));
}

async function remoteBytes(path: string): Promise<Buffer | undefined> {
  const result = await w.api.readWorkspaceFile(w.agentId, path);
  return result.ok && result.value.kind === 'bytes' ? Buffer.from(result.value.bytes) : undefined;
}
const localBytes = (path: string) => readFile(join(w.folder, 'work', path)).catch(() => undefined);

describe('the CLI’s sync killed while it transfers', () => {
  it('leaves each file old or new, and the next run ends in step with no conflict', async () => {
    // Versions each side holds now (`old`) and what this round writes (`next`).
    const old = new Map<string, Buffer | undefined>();
    for (let round = 1; round <= ROUNDS; round += 1) {
      const next = new Map<string, Buffer>();
      for (const path of FROM_AGENT) {
        next.set(path, content(path, round, random.between(256, 2048)));
        await w.writeRemote(path, next.get(path)!.toString());
      }
      for (const path of FROM_PERSON) {
        next.set(path, content(path, round, random.between(256, 2048)));
        await w.writeLocal(`work/${path}`, next.get(path)!.toString());
      }
      const sync = w.startCli([w.folder, '--agent', w.agentId, '--server', w.service.url, '--once']);
      await sync.waitFor(/Syncing \d+ changes/);
      const killAfter = random.between(0, 1500);
      await new Promise((resolve) => setTimeout(resolve, killAfter));
      sync.child.kill('SIGKILL');
      const { code } = await sync.finished;
      const where = `round ${round}, killed ${killAfter} ms into the transfers (${code === null ? 'killed' : `it had exited ${code}`}), ${random.replay()}`;

      // The agent's files on the person's side, the person's on the agent's: old or new, whole.
      let arrived = 0;
      for (const [path, side] of [
        ...FROM_AGENT.map((p) => [p, localBytes] as const),
        ...FROM_PERSON.map((p) => [p, remoteBytes] as const),
      ]) {
        const now = await side(path);
        const whole = [old.get(path), next.get(path)].some((v) =>
          v === undefined ? now === undefined : now?.equals(v),
        );
        if (now?.equals(next.get(path)!)) arrived += 1;
        expect(
          whole,
          `${path} holds ${versionOf(now)} (${now?.byteLength ?? 0} bytes) after the kill, ${where}`,
        ).toBe(true);
      }

      console.log(`${where}: ${arrived} of ${next.size} files had arrived`);
      const after = await w.syncOnce();
      expect(after.code, `the next run, ${where}:\n${after.out}${after.err}`).toBe(0);
      expect(after.out, where).not.toMatch(/Conflict/);
      const names = await namesIn(w.folder);
      expect(
        names.filter((n) => n.includes('.agentdesk-tmp-') || n.includes('.conflict-')),
        where,
      ).toEqual([]);
      for (const path of [...FROM_AGENT, ...FROM_PERSON]) {
        const local = await localBytes(path);
        const remote = await remoteBytes(path);
        expect(versionOf(local), `${path} on the person's side, ${where}`).toBe(String(round));
        expect(
          local?.equals(next.get(path)!) && remote?.equals(next.get(path)!),
          `${path} in step, ${where}`,
        ).toBe(true);
        old.set(path, next.get(path));
      }
    }
  }, 120_000);
});
