/**
 * Issue 12, item 1's fallback and item 7's poll, against a server that offers exactly the spec
 * (test/support/spec-only-server.ts in front of the real local service): no sha256, no ETag, no
 * If-Match, no 304, no byte download. The real `agentdesk sync` (cli-harness.ts), once and
 * watching, still syncs what the spec lets it, re-reads an entry before writing over it, and never
 * overwrites a version of the agent's it could not keep.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy } from '../../support/fault-proxy';
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

const read = (path: string) => readFile(join(w.folder, path), 'utf8');
const syncOnce = () => w.startCli([w.folder, '--agent', w.agentId, '--server', spec.url, '--once']).finished;
const agentPrompt = async () => {
  const config = await w.api.getAgentConfig(w.agentId, { fields: ['prompt'] });
  return config.ok ? config.value.prompt : undefined;
};
const setAgentPrompt = async (prompt: string) => {
  const result = await w.api.updateAgentConfig(w.agentId, { prompt });
  if (!result.ok) throw new Error(result.error.message);
};

describe('agentdesk sync against a spec-only server', () => {
  it('--once: uploads work/, syncs instructions both ways, says work/ is upload-only, exits 0', async () => {
    await setAgentPrompt('You are the spec agent.');
    await w.writeRemote('theirs.txt', 'the agent wrote this');
    await w.writeLocal('work/mine.txt', 'I wrote this');
    const first = await syncOnce();
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/only uploads/);
    expect(first.out).toMatch(/Not synced: work\/theirs\.txt \(this server cannot send it back/);
    expect(await w.readRemote('mine.txt')).toBe('I wrote this');
    expect(await read('instructions.md')).toBe('You are the spec agent.');
    expect(existsSync(join(w.folder, 'work/theirs.txt'))).toBe(false);

    await writeFile(join(w.folder, 'work/mine.txt'), 'I wrote this, and then more');
    await writeFile(join(w.folder, 'instructions.md'), 'You are the spec agent, edited here.');
    const second = await syncOnce();
    expect(second.code, second.out + second.err).toBe(0);
    expect(await w.readRemote('mine.txt')).toBe('I wrote this, and then more');
    expect(await agentPrompt()).toBe('You are the spec agent, edited here.');
    expect(await w.readRemote('theirs.txt')).toBe('the agent wrote this');
    expect((await syncOnce()).out).not.toMatch(/Syncing \d+ change/);
  }, 90_000);

  it("--once never writes over the agent's version that moved after the listing: the re-read finds it", async () => {
    await w.writeLocal('work/shared.md', 'first version');
    expect((await syncOnce()).code).toBe(0);
    await writeFile(join(w.folder, 'work/shared.md'), 'my edit');
    // The agent writes right before the sync's last look at the file (the spec's JSON entry).
    const proxy = await startFaultProxy(spec.url);
    proxy.add({
      method: 'GET',
      path: /\/files\/shared\.md$/,
      times: 1,
      fault: {
        kind: 'tap',
        before: () => w.writeRemote('shared.md', 'the agent rewrote this file at length'),
      },
    });
    try {
      const result = await w.startCli([w.folder, '--server', proxy.url, '--once']).finished;
      expect(result.code, result.out + result.err).toBe(0);
      expect(proxy.count('GET', /\/files\/shared\.md$/)).toBeGreaterThan(0);
      expect(proxy.count('PUT', /\/files\/shared\.md$/)).toBe(0);
      // This server cannot send the agent's version, so it stays where it is, and so does mine.
      expect(result.out).toMatch(/Not synced: work\/shared\.md \(this server cannot send it back/);
    } finally {
      await proxy.close();
    }
    expect(await w.readRemote('shared.md')).toBe('the agent rewrote this file at length');
    expect(await read('work/shared.md')).toBe('my edit');
  }, 90_000);

  it('watching: a save is uploaded, and a new prompt reaches instructions.md within 5 s without ETags', async () => {
    await setAgentPrompt('Before watching.');
    const watcher = w.startCli([w.folder, '--agent', w.agentId, '--server', spec.url, '--interval', '30']);
    try {
      await watcher.waitFor('Watching for changes', 30_000);
      await w.writeLocal('work/saved.txt', 'saved while watching');
      await w.until(async () =>
        (await w.readRemote('saved.txt')) === 'saved while watching' ? true : undefined,
      );

      const changed = Date.now();
      await setAgentPrompt('Changed by the agent while watching.');
      await w.until(
        async () =>
          (await read('instructions.md')) === 'Changed by the agent while watching.' ? true : undefined,
        5000,
      );
      expect(Date.now() - changed).toBeLessThan(5000);

      await w.writeRemote('late.txt', 'written by the agent');
      await watcher.waitFor(/Not synced: work\/late\.txt \(this server cannot send it back/, 5000);
    } finally {
      watcher.child.kill('SIGINT');
    }
    const stopped = await watcher.finished;
    expect(stopped.code).toBe(0);
    expect(stopped.err).toBe('');
    expect(spec.refused).toEqual([]);
  }, 90_000);
});
