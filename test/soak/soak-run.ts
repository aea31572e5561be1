/**
 * `npm run soak -- --minutes N` (issue 38, item 6; default 30): one service (its own process, killed with
 * SIGKILL and started again every 30 s in a run under 5 minutes, every 3 minutes otherwise), two clients
 * sending turns whose `write <path>` asks permission (answered yes), the CLI's sync watching a folder of
 * 20,000 files (5,000 under 5 minutes: seeding and the first comparison of 20,000 would take most of a
 * short run) while the person edits files in it and the agent's turns write others. It prints turns
 * completed, turns ended by a restart and told to their client, versions lost and false conflicts (goal 0
 * for both; exit 1 otherwise), and RSS and open fds of each process at the start, middle and end.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cliFromSource } from '../support/cli-source';
import {
  createAgentToken,
  ensurePerson,
  firstAgentId,
  signIn,
  startTestService,
} from '../support/local-service';
import { freePort, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { openEvents } from '../support/sse';
import { describeSample, growth, sampleProcess, type ProcessSample } from './soak-probes';

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '30' } } });
const minutes = Number(values.minutes);
const short = minutes < 5;
const FILES = short ? 5_000 : 20_000;
const KILL_EVERY_MS = short ? 30_000 : 180_000;
const deadline = Date.now() + minutes * 60_000;
const log = (line: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);

const scratch = await mkdtemp(join(tmpdir(), 'agentdesk-soak-'));
const dataDir = join(scratch, 'service');
const folder = join(scratch, 'folder');
log(
  `${minutes} min; the service is killed every ${KILL_EVERY_MS / 1000} s; the folder holds ${FILES} files${short ? ' (5,000, not 20,000, in a run under 5 minutes)' : ''}`,
);

// An account, its agent and tokens, made once; they survive the restarts (they are in the store).
const prepared = await startTestService({ dataDir });
await ensurePerson(prepared);
const token = (await signIn(prepared)).access_token;
const agentId = await firstAgentId(prepared, token);
const agentToken = await createAgentToken(prepared, agentId);
await prepared.close();
const port = await freePort();
let service: ServiceProcess = await startServiceProcess({ port, dataDir });
const url = service.url;
const auth = { Authorization: `Bearer ${token}` };
const agentPath = `${url}/api/v2/me/agents/${agentId}`;

// The same files on both sides before the sync starts: its first look compares them all, then watches.
const remoteRoot = join(dataDir, 'agents', agentId, 'work');
for (let n = 0; n < FILES; n += 1) {
  const rel = join('bulk', `d${Math.floor(n / 500)}`, `f${n}.txt`);
  for (const root of [remoteRoot, join(folder, 'work')]) {
    await mkdir(join(root, rel, '..'), { recursive: true });
    await writeFile(join(root, rel), `bulk file ${n}\n`);
  }
}
const sync = spawn(
  process.execPath,
  [...cliFromSource, 'sync', folder, '--agent', agentId, '--server', url],
  {
    env: {
      ...process.env,
      HOME: join(scratch, 'home'),
      XDG_DATA_HOME: join(scratch, 'home', 'share'),
      AGENTDESK_DATA: join(scratch, 'data'),
      AGENTDESK_TOKEN: agentToken,
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let syncOutput = '';
sync.stdout.on('data', (c: Buffer) => (syncOutput += c.toString()));
sync.stderr.on('data', (c: Buffer) => (syncOutput += c.toString()));

const counts = { completed: 0, endedByRestart: 0, toldIdle: 0, notTold: 0, restarts: 0, personEdits: 0 };
const samples: { when: string; service: ProcessSample | null; sync: ProcessSample | null }[] = [];
const sample = async (when: string) => {
  samples.push({ when, service: await sampleProcess(service.pid), sync: await sampleProcess(sync.pid ?? 0) });
  const last = samples.at(-1)!;
  log(`${when}: service ${describeSample(last.service)}; sync ${describeSample(last.sync)}`);
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const running = () => Date.now() < deadline;
let up = true;

/** Resolves when the service answers again after a restart. */
async function serviceBack(): Promise<void> {
  for (;;) {
    if (
      up &&
      (await fetch(`${url}/api/v2/me/agents`, { headers: auth }).then(
        (r) => r.ok,
        () => false,
      ))
    )
      return;
    await pause(200);
  }
}

/** One client: turns one after another in its own conversation, each told its end, across restarts. */
async function client(name: string): Promise<void> {
  await serviceBack();
  const created = await fetch(`${agentPath}/conversations`, { method: 'POST', headers: auth });
  const path = `${agentPath}/conversations/${((await created.json()) as { id: string }).id}`;
  for (let n = 1; running(); n += 1) {
    await serviceBack();
    const events = await openEvents(`${path}/events`, token).catch(() => null);
    if (!events) continue;
    const content = `write soak/${name}-${n}.md\n\`\`\`\n${name} turn ${n}\n\`\`\``;
    const sent = await fetch(`${path}/messages`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content }),
    }).catch(() => null);
    if (!sent?.ok) {
      events.close();
      continue;
    }
    const { turnId } = (await sent.json()) as { turnId: string };
    let ending = await followTurn(events, path, turnId);
    let again: typeof events | null | undefined;
    if (ending === 'cut') {
      // The service went down mid-turn: the client reconnects with the last id it saw, as the app does.
      await serviceBack();
      again = await openEvents(`${path}/events`, token, { lastEventId: events.lastEventId }).catch(
        () => null,
      );
      ending = again ? await followTurn(again, path, turnId, true) : 'cut';
    }
    if (ending === 'completed') counts.completed += 1;
    else if (ending === 'restarted') counts.endedByRestart += 1;
    else if (ending === 'idle') counts.toldIdle += 1;
    else {
      counts.notTold += 1;
      // What it saw, so a run that misses can be read: the ids and the last events of each stream.
      const second = again
        ? `; again: ${tail(again)}`
        : again === null
          ? '; could not open the stream again'
          : '';
      log(
        `never told: ${name} turn ${turnId}, last id ${events.lastEventId ?? 'none'}; first stream: ${tail(events)}${second}`,
      );
    }
    await pause(250);
  }
}

/** The last few events a stream gave, named with their ids. */
function tail(events: Awaited<ReturnType<typeof openEvents>>): string {
  return (
    events.events
      .slice(-4)
      .map((e) => `${e.event}#${e.id ?? ''}${e.event === 'error' ? ` ${JSON.stringify(e.data)}` : ''}`)
      .join(', ') || 'no events'
  );
}

/** Reads a turn's events to its end, answering its permission: how it ended, or 'cut' if the stream broke. */
async function followTurn(
  events: Awaited<ReturnType<typeof openEvents>>,
  path: string,
  turnId: string,
  resumed = false,
): Promise<'completed' | 'restarted' | 'idle' | 'cut'> {
  let restarted = false;
  try {
    for (;;) {
      const event = await events.next(undefined, 60_000);
      const data = event.data as {
        turnId?: string;
        id?: string;
        options?: { optionId: string }[];
        code?: string;
        reposo?: boolean;
      };
      if (event.event === 'permission' && data.options) {
        await fetch(`${path}/permission`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ id: data.id, optionId: data.options[0]!.optionId }),
        }).catch(() => undefined);
      }
      if (event.event === 'error' && data.turnId === turnId && data.code === 'service_restarted')
        restarted = true;
      if (event.event === 'done' && data.turnId === turnId) return restarted ? 'restarted' : 'completed';
      // Resumed after a restart, the idle notice says nothing runs: the turn ended in the run before, its
      // end stored but not yet sent when that run was killed (the app's reducer reads it so: turn-reducer.ts).
      if (resumed && event.event === 'done' && data.reposo === true) return 'idle';
    }
  } catch (error) {
    if (!restarted)
      log(`a stream of turn ${turnId} ended: ${error instanceof Error ? error.message : String(error)}`);
    return restarted ? 'restarted' : 'cut';
  } finally {
    events.close();
  }
}

/** The person edits a few files of their own in the folder, a new version each time. */
const personLatest = new Map<string, string>();
async function person(): Promise<void> {
  for (let n = 1; running(); n += 1) {
    const rel = `mine/note-${n % 7}.md`;
    const text = `the person's edit ${n}\n`;
    await mkdir(join(folder, 'work', 'mine'), { recursive: true });
    await writeFile(join(folder, 'work', rel), text);
    personLatest.set(rel, text);
    counts.personEdits += 1;
    await pause(1500);
  }
}

async function killer(): Promise<void> {
  for (;;) {
    await pause(KILL_EVERY_MS);
    if (!running()) return;
    up = false;
    await service.kill('SIGKILL');
    counts.restarts += 1;
    service = await startServiceProcess({ port, dataDir });
    up = true;
  }
}

// The start is sampled once the sync's first look at the folder is done (its warm-up).
for (let waited = 0; !/In step/.test(syncOutput) && waited < 180_000; waited += 500) await pause(500);
log(`the sync's first look is done; turns begin`);
await sample('start');
const middle = pause((deadline - Date.now()) / 2).then(() => sample('middle'));
await Promise.all([client('a'), client('b'), person(), killer(), middle]);

// Settling: the sync gets a minute to carry the last edits each way.
log('settling: waiting for the sync to carry the last edits');
const remoteText = async (rel: string) => {
  const answer = await fetch(`${url}/api/v2/agents/${agentId}/files/${rel}`, {
    headers: { ...auth, Accept: 'application/octet-stream' },
  }).catch(() => null);
  return answer?.ok ? answer.text() : undefined;
};
const agentFiles = async () =>
  (await readdir(join(remoteRoot, 'soak')).catch(() => [] as string[])).map((n) => `soak/${n}`);
const lost = async () => {
  const missing: string[] = [];
  for (const [rel, text] of personLatest) if ((await remoteText(rel)) !== text) missing.push(rel);
  for (const rel of await agentFiles()) {
    const local = await readFile(join(folder, 'work', rel), 'utf8').catch(() => undefined);
    if (local !== (await readFile(join(remoteRoot, rel), 'utf8'))) missing.push(rel);
  }
  return missing;
};
let versionsLost = await lost();
for (let waited = 0; versionsLost.length > 0 && waited < 60_000; waited += 2000) {
  await pause(2000);
  versionsLost = await lost();
}
await sample('end');
const conflictCopies = (await readdir(folder, { recursive: true })).filter((n) => n.includes('.conflict-'));
const falseConflicts = conflictCopies.length + (syncOutput.match(/Conflict:/g)?.length ?? 0);

sync.kill('SIGTERM');
await service.kill('SIGTERM');
const first = samples[0]!;
const last = samples.at(-1)!;
console.log(`
Soak: ${minutes} min, ${FILES} files watched, ${counts.restarts} service restarts (SIGKILL)
  turns completed:                       ${counts.completed}
  turns ended by a restart (told):       ${counts.endedByRestart}
  turns ended just before one (idle):    ${counts.toldIdle}
  turns whose end was never told:        ${counts.notTold}
  person's edits:                        ${counts.personEdits}
  agent's files written:                 ${(await agentFiles()).length}
  versions lost (goal 0):                ${versionsLost.length}${versionsLost.length ? ` (${versionsLost.slice(0, 5).join(', ')})` : ''}
  false conflicts (goal 0):              ${falseConflicts}
  sync (one process throughout):         ${samples.map((s) => `${s.when} ${describeSample(s.sync)}`).join('; ')} (${growth(first.sync, last.sync)})
  service (a new process each restart):  ${samples.map((s) => `${s.when} ${describeSample(s.service)}`).join('; ')}`);
// The one line `npm test` repeats in its summary.
console.log(
  `soak: ${counts.completed} turns completed, ${counts.endedByRestart} ended by a restart, ${counts.notTold} never told, ${versionsLost.length} versions lost, ${falseConflicts} false conflicts`,
);
await rm(scratch, { recursive: true, force: true });
process.exit(versionsLost.length === 0 && falseConflicts === 0 && counts.notTold === 0 ? 0 : 1);
