/**
 * Issue 12, item 4 ("a burst of hundreds of changes ends in one consistent state") as a developer
 * meets it: a real git repository in work/repo of a folder that a real `agentdesk sync` watches,
 * and real `git checkout`s of branches that change, remove and add dozens of files at once, also
 * back to back while a cycle runs. Afterwards the agent holds exactly the checked-out tree, the
 * repository's .git/ never left the computer, and no cycle failed on a file that vanished. And a
 * real unzip of 300 files into the watched folder.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useOutsiderWorld } from './outsider-world';

const o = useOutsiderWorld();
const { w } = o;
const run = promisify(execFile);

function git(...args: string[]) {
  return run('git', ['-c', 'user.name=Person', '-c', 'user.email=person@example.test', ...args], {
    cwd: join(w.folder, 'work/repo'),
  });
}

/** The working tree of work/repo as the agent should hold it (workspace path → text), .git/ left out. */
async function checkedOut(): Promise<Map<string, string>> {
  const work = join(w.folder, 'work');
  const files = new Map<string, string>();
  for (const entry of await readdir(join(work, 'repo'), { recursive: true, withFileTypes: true })) {
    const full = join(entry.parentPath, entry.name);
    const path = relative(work, full);
    if (!entry.isFile() || path.split('/').includes('.git')) continue;
    files.set(path, await readFile(full, 'utf8'));
  }
  return files;
}

/** The agent's copy of work/repo. */
async function agentsRepo(): Promise<Map<string, string>> {
  const all = await o.remoteFiles();
  return new Map([...all].filter(([path]) => path.startsWith('repo/')));
}

const sorted = (files: Map<string, string>) => [...files].sort(([a], [b]) => a.localeCompare(b));

/** Waits until the agent holds exactly the checked-out tree. */
async function inStep() {
  const want = sorted(await checkedOut());
  await w.until(async () => {
    const have = sorted(await agentsRepo());
    return JSON.stringify(have) === JSON.stringify(want) ? true : undefined;
  }, 30_000);
}

/** Two branches: `other` changes 20 of main's 60 files, removes 15 and adds 20 (some in new folders). */
async function makeRepo() {
  for (let n = 0; n < 60; n += 1)
    await w.writeLocal(`work/repo/src/${n % 4}/file-${n}.ts`, `export const n${n} = ${n}; // main\n`);
  await w.writeLocal('work/repo/README.md', 'the project\n');
  await git('init', '-q', '-b', 'main');
  await git('add', '.');
  await git('commit', '-q', '-m', 'main');
  await git('checkout', '-q', '-b', 'other');
  for (let n = 0; n < 20; n += 1)
    await w.writeLocal(`work/repo/src/${n % 4}/file-${n}.ts`, `export const n${n} = ${n * 2}; // other\n`);
  await git('rm', '-q', ...Array.from({ length: 15 }, (_, i) => `src/${(i + 20) % 4}/file-${i + 20}.ts`));
  for (let n = 0; n < 20; n += 1)
    await w.writeLocal(`work/repo/lib/new-${n % 3}/added-${n}.ts`, `export const added${n} = true;\n`);
  await git('add', '.');
  await git('commit', '-q', '-m', 'other');
  await git('checkout', '-q', 'main');
}

describe('git checkout in a watched folder', () => {
  it('a branch switch, and three more back to back, end with the agent holding the checked-out tree', async () => {
    await makeRepo();
    const cli = await o.watch();
    let output: string | undefined;
    try {
      await inStep();
      expect((await agentsRepo()).size).toBe(61);

      await git('checkout', '-q', 'other');
      await inStep();
      const other = await agentsRepo();
      expect(other.size).toBe(66);
      expect(other.get('repo/src/1/file-1.ts')).toBe('export const n1 = 2; // other\n');
      expect(other.has('repo/src/0/file-20.ts')).toBe(false);
      expect(other.get('repo/lib/new-2/added-5.ts')).toBe('export const added5 = true;\n');

      // Back and forth while the watcher's cycles run: files vanish and reappear mid-cycle.
      await git('checkout', '-q', 'main');
      await git('checkout', '-q', 'other');
      await git('checkout', '-q', 'main');
      await inStep();
      expect((await agentsRepo()).get('repo/src/1/file-1.ts')).toBe('export const n1 = 1; // main\n');
      expect((await agentsRepo()).has('repo/lib/new-2/added-5.ts')).toBe(false);
    } finally {
      output = (await o.stop(cli)).out;
    }
    expect(output).not.toMatch(/ENOENT|^Error:|Paused:/m);
    // Still in step once the run stopped: nothing undid the tree after it first matched.
    expect(sorted(await agentsRepo())).toEqual(sorted(await checkedOut()));
    expect(o.proxy.seen.filter((s) => decodeURIComponent(s.path).includes('/.git/'))).toEqual([]);
    // A version the checkout replaced is still on the computer: git has it, and so does the agent now.
    expect(await readFile(join(w.folder, 'work/repo/src/1/file-1.ts'), 'utf8')).toContain('// main');
  }, 120_000);

  it('an archive of 300 files unzipped into the folder while watching arrives whole', async () => {
    const cli = await o.watch();
    try {
      const source = join(w.scratch, `archive-${Date.now()}`);
      for (let n = 0; n < 300; n += 1)
        await mkdir(join(source, 'site', `part-${n % 10}`), { recursive: true }).then(() =>
          writeFile(join(source, 'site', `part-${n % 10}`, `page-${n}.html`), `<p>page ${n}</p>\n`),
        );
      await run('zip', ['-qr', join(source, 'site.zip'), 'site'], { cwd: source });
      await run('unzip', ['-q', join(source, 'site.zip'), '-d', join(w.folder, 'work')]);
      await w.until(async () => {
        const listing = await w.api.listWorkspace(w.agentId, '');
        const site = listing.ok ? listing.value.files.filter((f) => f.path.startsWith('site/')) : [];
        return site.length === 300 ? true : undefined;
      }, 60_000);
      expect(await w.readRemote('site/part-7/page-297.html')).toBe('<p>page 297</p>\n');
    } finally {
      expect((await o.stop(cli)).out).not.toMatch(/ENOENT|^Error:/m);
    }
  }, 120_000);
});
