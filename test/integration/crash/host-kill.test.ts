/**
 * The app's host (browser mode's createHost, in its own process: host-child.ts) killed with SIGKILL while
 * a turn streams and its memory store writes it (issue 38, item 2), a seeded moment after a turn is sent.
 * Against the real local service over HTTP and SSE, real SQLite memory files. After each kill: the memory
 * store opens as it is (not set aside as damaged), and a host started again on the same data folder reads
 * every conversation again, with every turn the killed host had seen end. (The turn the kill cut goes on at
 * the service; a `write` there waits for its permission, which the person gives in the app later.)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../src/core/auth/memory-secret-store';
import { startService, type RunningService } from '../../../src/service/index';
import { personBrowser } from '../../support/person-browser';
import { ensurePerson } from '../../support/local-service';
import { crashRandom } from './crash-seed';
import { anotherServerHost } from '../../support/another-server-host';

const random = crashRandom('host-kill');
const KILLS = 2;
let dir = '';
let service: RunningService;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-crash-host-'));
  service = await startService({ dataDir: join(dir, 'service'), port: 0 });
  await ensurePerson(service);
});
afterAll(async () => {
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Line {
  agentId?: string;
  sessionId?: string;
  sent?: number;
  ended?: number;
  turnId?: string;
}

/** host-child.ts under tsx, its lines parsed as they come. */
function startHostChild(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'host-child.ts')], {
    env: { ...process.env, HOST_DATA: dataDir, SERVICE_URL: service.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Line[] = [];
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const complete = out.split('\n');
    out = complete.pop()!;
    for (const line of complete) if (line.startsWith('{')) lines.push(JSON.parse(line) as Line);
    for (const wake of waiters) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const until = (test: (line: Line) => boolean) =>
    new Promise<Line>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`host child: timed out; stderr:\n${err}`)), 60_000);
      const look = () => {
        const found = lines.find(test);
        if (!found) return;
        clearTimeout(timer);
        waiters.delete(look);
        resolve(found);
      };
      waiters.add(look);
      void exited.then(() => reject(new Error(`host child exited; stderr:\n${err}`)));
      look();
    });
  return { child, lines, until, exited };
}

describe('the app’s host killed while it streams and stores memory', () => {
  it('opens its memory store again and reads every conversation again', async () => {
    const dataDir = join(dir, 'host');
    const conversations: { agentId: string; sessionId: string; ended: string[] }[] = [];
    for (let round = 1; round <= KILLS; round += 1) {
      const host = startHostChild(dataDir);
      const { agentId, sessionId } = (await host.until((l) => l.sessionId !== undefined)) as Required<Line>;
      const turn = random.between(2, 4);
      await host.until((l) => l.sent === turn);
      const killAfter = random.between(0, 1500);
      await new Promise((resolve) => setTimeout(resolve, killAfter));
      host.child.kill('SIGKILL');
      await host.exited;
      const ended = host.lines.filter((l) => l.ended !== undefined).map((l) => l.turnId!);
      conversations.push({ agentId, sessionId, ended });
      const where = `round ${round}, killed ${killAfter} ms after turn ${turn} was sent, ${random.replay()}`;
      console.log(`${where}: ${ended.length} turns had ended`);

      const reopened = await anotherServerHost({
        dataDir,
        secrets: createMemorySecretStore(),
        openBrowser: personBrowser(() => service),
      });
      try {
        const damaged = (await readdir(dataDir, { recursive: true })).filter((n) => n.includes('.damaged-'));
        expect(damaged, `the memory store was set aside, ${where}`).toEqual([]);
        expect((await reopened.signIn()).ok, where).toBe(true);
        for (const c of conversations) {
          const opened = await reopened.openConversation(c.agentId, c.sessionId);
          if (!opened.ok) throw new Error(`${opened.error.message}, ${where}`);
          // Each turn the killed host saw end is there, question and whole reply, in order. (The events
          // behind a reply, its tools and thoughts, are kept for what the memory writer had committed.)
          const said = opened.value.messages.map((m) => `${m.role}: ${m.content.split('\n')[0]}`);
          c.ended.forEach((_turnId, index) => {
            const n = index + 1;
            const question = n % 2 ? `user: write notes/${n}.md` : 'user: wait 1';
            const reply = n % 2 ? /^assistant: I wrote 13999 bytes/ : /^assistant: Waiting 1 seconds/;
            expect(said[index * 2], `turn ${n}, ${where}`).toBe(question);
            expect(said[index * 2 + 1], `turn ${n}, ${where}`).toMatch(reply);
          });
        }
        // Stored, not only fetched: the memory store found it offline too.
        const hits = await reopened.searchConversations({ text: 'notes/1.md' });
        expect(hits.ok && hits.value.length, where).toBeGreaterThan(0);
      } finally {
        await reopened.close();
      }
    }
  }, 150_000);
});
