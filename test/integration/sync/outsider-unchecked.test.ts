/**
 * Issue 26, item 4: a spec-only server (test/support/spec-only-server.ts in front of the real
 * service: no sha256 in listings, no byte route, so work/ is upload-only). The agent edits a file
 * without changing its size, which this server cannot show; then the person edits or deletes their
 * copy. The real `agentdesk sync` says once, plainly, that it cannot tell whether the agent changed
 * the file and what the person can do; with --confirm-overwrites it holds such changes instead.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSpecOnlyServer, type SpecOnlyServer } from '../../support/spec-only-server';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();
let spec: SpecOnlyServer;
beforeAll(async () => {
  spec = await startSpecOnlyServer(w.service.url);
});
afterAll(async () => {
  await spec?.close();
});

const syncOnce = (...extra: string[]) =>
  w.startCli([w.folder, '--agent', w.agentId, '--server', spec.url, '--once', ...extra]).finished;
const count = (text: string, part: string) => text.split(part).length - 1;

/** Two files synced; the agent then rewrites one in place with the same size. */
async function agentEditsSameSize() {
  await w.writeLocal('work/notes.txt', 'written by me');
  await w.writeLocal('work/old.txt', 'to be deleted');
  expect((await syncOnce()).code).toBe(0);
  await w.writeRemote('notes.txt', 'AGENT EDIT ME');
  await w.writeRemote('old.txt', 'agent changed');
}

describe('a same-size edit the spec-only server cannot show', () => {
  it('says once that it cannot tell, and what the person can do, before sending over it', async () => {
    await agentEditsSameSize();
    await writeFile(join(w.folder, 'work/notes.txt'), 'my second version');
    await rm(join(w.folder, 'work/old.txt'));
    const run = await syncOnce();
    expect(run.code, run.out + run.err).toBe(0);
    const said = run.out;
    expect(count(said, "Can't tell whether the agent changed")).toBe(1);
    expect(said).toMatch(/this server lists no checksums and can't send files back/);
    expect(said).toContain('--confirm-overwrites');
    expect(said).toContain('keep the folder upload-only');
    // Said before the changes went out, and they went: the folder is upload-only.
    expect(said.indexOf("Can't tell")).toBeLessThan(said.indexOf('In step'));
    expect(await w.readRemote('notes.txt')).toBe('my second version');
    expect(await w.readRemote('old.txt')).toBeUndefined();
  }, 90_000);

  it('--confirm-overwrites holds them, listed with the reason, until a run without it', async () => {
    await agentEditsSameSize();
    await writeFile(join(w.folder, 'work/notes.txt'), 'my second version');
    await rm(join(w.folder, 'work/old.txt'));
    const held = await syncOnce('--confirm-overwrites');
    expect(held.code, held.out + held.err).toBe(0);
    expect(held.out).toContain(
      "Not synced: work/notes.txt (held: this server can't show whether the agent changed it; run without --confirm-overwrites to send yours)",
    );
    expect(held.out).toContain('Not synced: work/old.txt (held:');
    expect(held.out).not.toContain("Can't tell whether");
    expect(await w.readRemote('notes.txt')).toBe('AGENT EDIT ME');
    expect(await w.readRemote('old.txt')).toBe('agent changed');
    // Held, not forgotten: the next run without the flag sends them, saying so first.
    const sent = await syncOnce();
    expect(sent.code).toBe(0);
    expect(count(sent.out, "Can't tell whether the agent changed")).toBe(1);
    expect(await w.readRemote('notes.txt')).toBe('my second version');
    expect(await w.readRemote('old.txt')).toBeUndefined();
  }, 90_000);
});
