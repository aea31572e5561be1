/**
 * Issue 12, "Lost versions" and item 1, with the real `agentdesk sync` watching (cli-harness.ts)
 * against the real local service. The recording proxy (outsider-world.ts) only picks the moment:
 * when the sync's own request for the file goes out, the person saves (during a download) or the
 * agent writes (between the listing and the upload), as they would in life. Neither is lost.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useOutsiderWorld } from './outsider-world';

const o = useOutsiderWorld();
const { w } = o;
const read = (path: string) => readFile(join(w.folder, path), 'utf8').catch(() => undefined);
const copiesOf = async (stem: string) =>
  (await readdir(join(w.folder, 'work'))).filter((n) => n.startsWith(`${stem}.conflict-remote-`));
const remoteIs = (path: string, text: string) =>
  w.until(async () => ((await w.readRemote(path)) === text ? true : undefined));

describe('the person and the agent write at the worst moment', () => {
  it("a save landing while the agent's newer version downloads is kept, 3 saves out of 3", async () => {
    for (const n of [1, 2, 3]) await w.writeLocal(`work/page-${n}.md`, `page ${n}, synced`);
    const cli = await o.watch();
    try {
      for (const n of [1, 2, 3]) {
        const path = `page-${n}.md`;
        await remoteIs(path, `page ${n}, synced`);
        // The person saves at the moment the sync asks for the agent's bytes.
        o.proxy.add({
          method: 'GET',
          path: new RegExp(`/files/${path.replace('.', '\\.')}$`),
          times: 1,
          fault: { kind: 'tap', before: () => writeFile(join(w.folder, 'work', path), `my save ${n}`) },
        });
        await w.writeRemote(path, `the agent's version ${n}`);
        await cli.waitFor(new RegExp(`Conflict: work/page-${n}\\.md changed on both sides`), 15_000);
        expect(await read(`work/${path}`)).toBe(`my save ${n}`);
        const copies = await copiesOf(`page-${n}`);
        expect(copies).toHaveLength(1);
        expect(await read(`work/${copies[0]}`)).toBe(`the agent's version ${n}`);
        expect(await w.readRemote(path)).toBe(`the agent's version ${n}`);
      }
    } finally {
      expect((await o.stop(cli)).err).not.toMatch(/^Error:/m);
    }
  }, 90_000);

  it('an agent write between the listing and the upload is never overwritten: it becomes a conflict', async () => {
    await w.writeLocal('work/plan.md', 'plan v1');
    const cli = await o.watch();
    try {
      await remoteIs('plan.md', 'plan v1');
      // The agent writes at the moment the sync sends the person's edit.
      o.proxy.add({
        method: 'PUT',
        path: /\/files\/plan\.md$/,
        times: 1,
        fault: { kind: 'tap', before: () => w.writeRemote('plan.md', "the agent's plan") },
      });
      await writeFile(join(w.folder, 'work/plan.md'), 'my plan');
      await cli.waitFor(/Conflict: work\/plan\.md changed on both sides/, 15_000);
      expect(await w.readRemote('plan.md')).toBe("the agent's plan");
      expect(await read('work/plan.md')).toBe('my plan');
      const copies = await copiesOf('plan');
      expect(copies).toHaveLength(1);
      expect(await read(`work/${copies[0]}`)).toBe("the agent's plan");
    } finally {
      expect((await o.stop(cli)).err).not.toMatch(/^Error:/m);
    }
  }, 90_000);
});
