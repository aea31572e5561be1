/**
 * The service killed with SIGKILL at random moments while it writes (issue 38, item 2): workspace files
 * (PUT files), the library (POST me/files), a skill (PUT skills) and the bundle (POST bundle), all at once,
 * several MB each, against the real `npm run service` process. After each kill: `npm run service -- check`
 * passes on the store, and once the service is started again every file is its old or its new content,
 * whole (never a mix or empty), a write the service had answered 200 is there, a skill is one version of
 * itself, and no temporary file shows in a listing or remains on disk (the start removes what the kill left,
 * and never a file whose name merely looks like one). The moments come from a printed seed (crash-seed.ts).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensurePerson, firstAgentId, signIn, startTestService } from '../../support/local-service';
import {
  freePort,
  serviceCli,
  startServiceProcess,
  type ServiceProcess,
} from '../../support/service-process';
import { crashRandom } from './crash-seed';

const KILLS = 4;
const WORKSPACE_FILES = ['work/w0.txt', 'work/w1.txt', 'work/deep/w2.txt'];
const KNOWLEDGE_FILES = ['knowledge/k0.md', 'knowledge/k1.md', 'knowledge/sub/k2.md'];
const SKILL = 'crash-skill';
const SKILL_ASSETS = ['a.bin', 'b.bin', 'data/c.bin'];

const random = crashRandom('service-kill');
/** The service's own temp names (a file, a skill's staging, a replaced skill aside). */
const SERVICE_TEMP = /^\.agentdesk-tmp-([0-9a-f]{12}|old-[a-z0-9-]+-[0-9a-f]{12})$/;
/** A person's files in the workspace whose names merely look like the service's temp names: they stay. */
const LOOK_ALIKES = [
  '.agentdesk-tmp-notes.txt',
  '.agentdesk-tmp-0123456789AB',
  '.agentdesk-tmp-0123456789abc',
  'agentdesk-tmp-0123456789ab',
  'deep/.agentdesk-tmp-0123456789ab.md',
];
let dataDir = '';
let service: ServiceProcess | undefined;
afterAll(async () => {
  await service?.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Bytes that say whose and which version they are on every line, so a mix of two versions shows. */
function content(name: string, version: number, size: number): Buffer {
  return Buffer.alloc(size, `${name} version ${version}\n`);
}
const versionOf = (bytes: Buffer | undefined): string =>
  bytes ? (/version (\d+)/.exec(bytes.subarray(0, 200).toString())?.[1] ?? 'unreadable') : 'absent';

/** What each file may hold after a kill: its old content, or the new one being written. */
interface Expected {
  old: Buffer | undefined;
  next: Buffer | undefined;
  /** The service answered 200 for `next` before the kill: only `next` will do. */
  answered: boolean;
}

const skillMarkdown = (version: number) =>
  Buffer.from(`---\ndescription: crash test skill, version ${version}\n---\n\nversion ${version}\n`);

describe('the service killed while it writes', { timeout: 120_000 }, () => {
  it('leaves every file old or new, whole, and a store that opens', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-crash-service-'));
    const prepared = await startTestService({ dataDir });
    await ensurePerson(prepared);
    const token = (await signIn(prepared)).access_token;
    const agentId = await firstAgentId(prepared, token);
    await prepared.close();
    const auth = { Authorization: `Bearer ${token}` };
    const port = await freePort();
    const agent = (url: string) => `${url}/api/v2/agents/${agentId}`;

    const files = new Map<string, Expected>();
    const libraryUploads = new Map<string, Buffer>();
    for (const path of [...WORKSPACE_FILES, ...KNOWLEDGE_FILES, 'instructions.md', 'skill/SKILL.md'])
      files.set(path, { old: undefined, next: undefined, answered: false });
    for (const asset of SKILL_ASSETS)
      files.set(`skill/${asset}`, { old: undefined, next: undefined, answered: false });

    const work = join(dataDir, 'agents', agentId, 'work');
    for (const name of LOOK_ALIKES) {
      await mkdir(join(work, name, '..'), { recursive: true });
      await writeFile(join(work, name), `the person's ${name}`);
    }
    service = await startServiceProcess({ port, dataDir });
    for (let round = 1; round <= KILLS; round += 1) {
      const url = service.url;
      const writes: Promise<void>[] = [];
      const expect200 = (keys: string[], sent: Promise<Response>) =>
        writes.push(
          sent.then(
            (answer) => {
              if (answer.ok) for (const key of keys) files.get(key)!.answered = true;
            },
            () => undefined, // cut by the kill
          ),
        );
      const plan = (key: string, bytes: Buffer) => {
        const entry = files.get(key)!;
        entry.next = bytes;
        entry.answered = false;
        return bytes;
      };
      for (const path of WORKSPACE_FILES) {
        const bytes = plan(path, content(path, round, random.between(256, 3072) * 1024));
        expect200(
          [path],
          fetch(`${agent(url)}/files/${path}`, { method: 'PUT', headers: auth, body: bytes }),
        );
      }
      const upload = `library-${round}.bin`;
      const uploadBytes = content(upload, round, random.between(512, 4096) * 1024);
      libraryUploads.set(upload, uploadBytes);
      writes.push(
        fetch(`${url}/api/v2/me/files?nombre=${upload}`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/octet-stream' },
          body: uploadBytes,
        }).then(
          () => undefined,
          () => undefined,
        ),
      );
      // The skill is written by PUT skills in odd rounds, by the bundle (with knowledge and instructions)
      // in even ones: the bundle names the skill, so it never removes it.
      const skillFiles = [
        { key: 'skill/SKILL.md', bytes: plan('skill/SKILL.md', skillMarkdown(round)) },
        ...SKILL_ASSETS.map((asset) => ({
          key: `skill/${asset}`,
          bytes: plan(`skill/${asset}`, content(asset, round, random.between(256, 2048) * 1024)),
        })),
      ];
      if (round % 2 === 1) {
        expect200(
          skillFiles.map((f) => f.key),
          fetch(`${agent(url)}/skills/${SKILL}`, {
            method: 'PUT',
            headers: { ...auth, 'Content-Type': 'application/json' },
            body: JSON.stringify({
              markdown: skillFiles[0]!.bytes.toString(),
              assets: skillFiles.slice(1).map((f) => ({
                name: f.key.slice('skill/'.length),
                contentBase64: f.bytes.toString('base64'),
              })),
            }),
          }),
        );
      } else {
        const bundle = [
          { path: 'instructions.md', bytes: plan('instructions.md', content('instructions', round, 4000)) },
          ...KNOWLEDGE_FILES.map((path) => ({
            path,
            bytes: plan(path, content(path, round, random.between(128, 1024) * 1024)),
          })),
          ...skillFiles.map((f) => ({
            path: `skills/${SKILL}/${f.key.slice('skill/'.length)}`,
            bytes: f.bytes,
          })),
        ];
        expect200(
          [
            ...bundle.map((f) => f.path).filter((p) => !p.startsWith('skills/')),
            ...skillFiles.map((f) => f.key),
          ],
          fetch(`${agent(url)}/bundle`, {
            method: 'POST',
            headers: { ...auth, 'Content-Type': 'application/json' },
            body: JSON.stringify({
              files: bundle.map((f) => ({ path: f.path, contentBase64: f.bytes.toString('base64') })),
            }),
          }),
        );
      }
      // Killed while the writes are under way: when the k-th temporary file appears (each write makes
      // one), then a few ms more; or at the latest after 3 s.
      // In a bundle round, as often the k-th under knowledge/ (the bundle replaces that folder).
      const under = round % 2 === 0 && random.next() < 0.5 ? 'knowledge' : '';
      const nth = under ? random.between(1, KNOWLEDGE_FILES.length) : random.between(1, 12);
      const extra = random.between(0, 30);
      await tempFileNumber(under, nth, 3000);
      await new Promise((resolve) => setTimeout(resolve, extra));
      const killAfter = `temp file ${nth}${under ? ` under ${under}/` : ''} + ${extra} ms`;
      await service.kill('SIGKILL');
      await Promise.all(writes);
      const answered = [...files.values()].filter((e) => e.answered).length;
      const where = `round ${round}, killed at ${killAfter}, ${random.replay()}`;
      console.log(`${where}: ${answered} of ${files.size} files answered 200 before the kill`);

      const check = await serviceCli(['check', '--data', dataDir]);
      expect(check.code, `the store's check failed, ${where}:\n${check.stdout}${check.stderr}`).toBe(0);
      // What the kill left, and one leftover of each kind planted as a kill leaves it (so each round has some).
      const left = await serviceTempNames();
      await writeFile(join(work, '.agentdesk-tmp-00112233aabb'), 'half a file');
      await mkdir(join(work, '.agents', 'skills', '.agentdesk-tmp-44556677ccdd'), { recursive: true });
      await writeFile(join(work, '.agents', 'skills', '.agentdesk-tmp-44556677ccdd', 'SKILL.md'), 'half');
      service = await startServiceProcess({ port, dataDir });
      expect(
        await serviceTempNames(),
        `temporary files after the restart (${left.length} left by the kill), ${where}`,
      ).toEqual([]);
      for (const name of LOOK_ALIKES)
        expect(await readFile(join(work, name), 'utf8'), `${name}, ${where}`).toBe(`the person's ${name}`);
      const seen = await readBack(service.url);
      for (const [key, entry] of files) {
        const now = seen.get(key);
        const allowed = entry.answered ? [entry.next] : [entry.old, entry.next];
        const what = `${key} holds ${versionOf(now)} (${now?.byteLength ?? 0} bytes); old ${versionOf(entry.old)}, new ${versionOf(entry.next)}${entry.answered ? ' (answered 200)' : ''}, ${where}`;
        expect(
          allowed.some((bytes) => (bytes === undefined ? now === undefined : now?.equals(bytes))),
          what,
        ).toBe(true);
        entry.old = now;
        entry.next = undefined;
        entry.answered = false;
      }
      const skillVersions = new Set(
        [...files.keys()].filter((k) => k.startsWith('skill/')).map((k) => versionOf(files.get(k)!.old)),
      );
      expect(
        skillVersions.size,
        `the skill is a mix of versions ${[...skillVersions].join(', ')}, ${where}`,
      ).toBe(1);
      await checkLibrary(service.url, where);
    }

    /** The service's temp files and folders anywhere in its data folder. */
    async function serviceTempNames(): Promise<string[]> {
      const paths = await readdir(dataDir, { recursive: true });
      return paths.filter((p) => p.split(sep).some((part) => SERVICE_TEMP.test(part)));
    }

    /**
     * Resolves when `n` temporary files (with `under` in their path) have been seen in the data folder, or after
     * `ms`. Looked for every few ms: Node 20's recursive `fs.watch` on Linux throws an uncaught ENOENT when a
     * folder it follows vanishes (the service's temporary folders do), which failed the whole run.
     */
    function tempFileNumber(under: string, n: number, ms: number): Promise<void> {
      const names = new Set<string>();
      const until = Date.now() + ms;
      const look = async (): Promise<void> => {
        while (names.size < n && Date.now() < until) {
          const paths = await readdir(dataDir, { recursive: true }).catch(() => [] as string[]);
          for (const p of paths) if (p.includes('.agentdesk-tmp-') && p.includes(under)) names.add(p);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      };
      return look();
    }

    /** Every file as the restarted service serves it: workspace files, then the bundle's parts. */
    async function readBack(url: string): Promise<Map<string, Buffer>> {
      const seen = new Map<string, Buffer>();
      const listing = (await (await fetch(`${agent(url)}/files/`, { headers: auth })).json()) as {
        files: { path: string }[];
      };
      const shown = listing.files.map((f) => f.path).filter((p) => p.includes('.agentdesk-tmp-'));
      expect(shown, `temporary files listed, ${random.replay()}`).toEqual([]);
      for (const path of WORKSPACE_FILES) {
        const answer = await fetch(`${agent(url)}/files/${path}`, {
          headers: { ...auth, Accept: 'application/octet-stream' },
        });
        if (answer.status === 200) seen.set(path, Buffer.from(await answer.arrayBuffer()));
        else expect(answer.status).toBe(404);
      }
      const bundle = (await (await fetch(`${agent(url)}/bundle`, { headers: auth })).json()) as {
        files: { path: string; contentBase64: string }[];
      };
      for (const file of bundle.files) {
        const key = file.path.startsWith(`skills/${SKILL}/`)
          ? `skill/${file.path.slice(`skills/${SKILL}/`.length)}`
          : file.path;
        seen.set(key, Buffer.from(file.contentBase64, 'base64'));
      }
      // An empty prompt is no instructions.md at all.
      if (seen.get('instructions.md')?.byteLength === 0) seen.delete('instructions.md');
      return seen;
    }

    /** Each listed library file is whole, with the bytes uploaded under its name. */
    async function checkLibrary(url: string, where: string): Promise<void> {
      const listed = (await (await fetch(`${url}/api/v2/me/files`, { headers: auth })).json()) as {
        archivos: { nombre: string; size: number; url: string }[];
      };
      for (const file of listed.archivos) {
        const bytes = Buffer.from(await (await fetch(file.url)).arrayBuffer());
        const uploaded = libraryUploads.get(file.nombre);
        expect(
          uploaded && bytes.equals(uploaded) && file.size === uploaded.byteLength,
          `library file ${file.nombre} is not whole, ${where}`,
        ).toBe(true);
      }
    }
  });
});
