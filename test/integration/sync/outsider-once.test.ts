/**
 * Issue 12, items 3, 8, 9 and 10 with `agentdesk sync <folder> --once`, the real CLI process
 * (cli-harness.ts) against the real local service: what it cannot carry is listed and exits 0,
 * ignored files on the agent's side survive two runs, names match by NFC, the server's own form
 * of mcp.json is no conflict, and the mass-delete pause holds only the deletes.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();
const read = (path: string) => readFile(join(w.folder, path), 'utf8');

describe('agentdesk sync --once', () => {
  it("never deletes nor downloads the agent's ignored files, over two runs", async () => {
    const agentOwn = [
      '.git/HEAD',
      '.git/objects/ab/cdef',
      'node_modules/left-pad/index.js',
      'notes.md~',
      'server.log',
      'build/out.js',
      'src/.main.ts.swp',
      '.~lock.report.odt#',
      'plan.conflict-remote-20260101-120000.md',
    ];
    for (const path of agentOwn) await w.writeRemote(path, `the agent's ${path}`);
    await w.writeRemote('kept.md', 'synced as usual');
    await w.writeLocal('.agentdeskignore', '*.log\nbuild/\n');
    for (const run of [1, 2]) {
      const result = await w.syncOnce();
      expect(result.code, `run ${run}: ${result.out}${result.err}`).toBe(0);
    }
    for (const path of agentOwn) expect(await w.readRemote(path), path).toBe(`the agent's ${path}`);
    for (const path of agentOwn) expect(existsSync(join(w.folder, 'work', path)), path).toBe(false);
    expect(await read('work/kept.md')).toBe('synced as usual');
  }, 90_000);

  it('lists what it cannot carry with the reason, exits 0, and keeps the agent’s copy of a file emptied here', async () => {
    await w.writeRemote('report.md', 'the report');
    expect((await w.syncOnce()).code).toBe(0);
    await writeFile(join(w.folder, 'work/report.md'), ''); // emptied by hand
    await w.writeLocal('work/new-empty.txt', '');
    await w.writeLocal('todo.txt', 'at the top, outside the layout');
    await w.writeLocal('drafts/idea.md', 'a top-level folder outside the layout');
    await w.writeLocal('work/plan.conflict-remote-20260101-120000.md', 'my own file, oddly named');
    const result = await w.syncOnce();
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/Not synced: todo\.txt \(outside the layout/);
    expect(result.out).toMatch(/Not synced: drafts\/idea\.md \(outside the layout/);
    expect(result.out).toMatch(/Not synced: work\/new-empty\.txt \(empty/);
    expect(result.out).toMatch(/Not synced: work\/report\.md \(empty/);
    expect(result.out).toMatch(
      /Not synced: work\/plan\.conflict-remote-20260101-120000\.md \(named like a conflict copy/,
    );
    expect(await w.readRemote('report.md')).toBe('the report');
    expect(await w.readRemote('plan.conflict-remote-20260101-120000.md')).toBeUndefined();
    expect(await read('work/report.md')).toBe('');
    // A second run says the same and still exits 0.
    const again = await w.syncOnce();
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/Not synced: work\/report\.md \(empty/);
  }, 90_000);

  it('mcp.json edited twice: each edit reaches the agent, and neither is a conflict', async () => {
    expect((await w.syncOnce()).code).toBe(0);
    const servers = (urls: string[]) =>
      JSON.stringify({ servers: urls.map((url, i) => ({ name: `docs-${i}`, url })) });
    await writeFile(join(w.folder, 'mcp.json'), servers(['https://one.example/mcp']));
    const first = await w.syncOnce();
    expect(first.code, first.out + first.err).toBe(0);
    await writeFile(
      join(w.folder, 'mcp.json'),
      servers(['https://one.example/mcp', 'https://two.example/mcp']),
    );
    const second = await w.syncOnce();
    expect(second.code, second.out + second.err).toBe(0);
    expect(second.out).not.toMatch(/Conflict/);
    const mcp = await w.api.getMcpServers(w.agentId);
    expect(mcp.ok && mcp.value.servers.map((s) => ('url' in s ? s.url : ''))).toEqual([
      'https://one.example/mcp',
      'https://two.example/mcp',
    ]);
    expect((await readdir(w.folder)).filter((n) => n.includes('conflict'))).toEqual([]);
    expect((await w.syncOnce()).out).not.toMatch(/Syncing \d+ change/);
    await writeFile(join(w.folder, 'mcp.json'), servers([])); // leave the agent as it was
    expect((await w.syncOnce()).code).toBe(0);
  }, 90_000);

  it('an NFD name on disk is updated in place when the agent edits it, with no NFC twin', async () => {
    await w.writeLocal('work/re\u0301sume\u0301.md', 'my résumé');
    expect((await w.syncOnce()).code).toBe(0);
    expect(await w.readRemote('r\u00e9sum\u00e9.md')).toBe('my résumé');
    await w.writeRemote('r\u00e9sum\u00e9.md', "the agent's edit");
    const result = await w.syncOnce();
    expect(result.code).toBe(0);
    expect((await readdir(join(w.folder, 'work'))).filter((n) => n.startsWith('r'))).toEqual([
      're\u0301sume\u0301.md',
    ]);
    expect(await read('work/re\u0301sume\u0301.md')).toBe("the agent's edit");
    const listing = await w.api.listWorkspace(w.agentId, '');
    expect(listing.ok && listing.value.files.map((f) => f.path)).toEqual(['r\u00e9sum\u00e9.md']);
  }, 90_000);

  it("a conflict on a name near the file system's limit makes a copy whose name still fits", async () => {
    const long = `${'\u00e9'.repeat(124)}.md`; // 251 bytes in UTF-8
    await w.writeRemote(long, "the agent's version");
    await w.writeLocal(`work/${long}`, 'my version');
    const result = await w.syncOnce();
    expect(result.code, result.out + result.err).toBe(3);
    const copies = (await readdir(join(w.folder, 'work'))).filter((n) => n.includes('.conflict-remote-'));
    expect(copies).toHaveLength(1);
    expect(Buffer.byteLength(copies[0]!)).toBeLessThanOrEqual(255);
    expect(await read(`work/${copies[0]}`)).toBe("the agent's version");
    expect(await read(`work/${long}`)).toBe('my version');
  }, 90_000);

  it('a mass deletion waits for --confirm-deletes while every other change goes through', async () => {
    for (let i = 0; i < 24; i += 1) await w.writeRemote(`bulk/${i}.txt`, `bulk ${i}`);
    await w.writeRemote('edited.md', 'v1');
    expect((await w.syncOnce()).code).toBe(0);
    await rm(join(w.folder, 'work/bulk'), { recursive: true });
    await writeFile(join(w.folder, 'work/edited.md'), 'v2, edited here');
    await w.writeLocal('work/added-here.md', 'new here');
    await w.writeRemote('added-by-agent.md', 'new on the agent');
    const paused = await w.syncOnce();
    expect(paused.code).toBe(1);
    expect(paused.err).toMatch(/Paused: This sync would delete 24 of/);
    expect(await w.readRemote('bulk/0.txt')).toBe('bulk 0');
    expect(await w.readRemote('edited.md')).toBe('v2, edited here');
    expect(await w.readRemote('added-here.md')).toBe('new here');
    expect(await read('work/added-by-agent.md')).toBe('new on the agent');
    const confirmed = await w.syncOnce('--confirm-deletes');
    expect(confirmed.code).toBe(0);
    expect(await w.readRemote('bulk/0.txt')).toBeUndefined();
    // The deleted versions are kept: history lists one of them.
    const history = await w.startCli(['history', w.folder, 'work/bulk/0.txt']).finished;
    expect(history.out).toMatch(/#\d+ /);
  }, 90_000);
});
