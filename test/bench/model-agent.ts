/**
 * The model agent's speed through the whole path (issue 37): a scripted OpenAI-protocol provider
 * streams a reply; the local service runs the model agent (engine-e, the provider found in its
 * environment as a person's would be), which streams it on over ACP; the service sends it as SSE to
 * a client reading the event stream. Measured against the provider's own stream read straight from
 * the same server in the same run, alternating:
 * - time to the first text: the path ≤ 1.1 × the provider's + 20 ms;
 * - text rate (characters a second from the first piece to the last): the path at least 0.9 × the
 *   provider's, i.e. the same rate.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { existsSync } from 'node:fs';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startOpenAiServer } from '../support/scripted-providers';
import { firstAgentId, signIn, startTestService } from '../support/local-service';
import { pathRows, providerStream, readSse, type Timed } from './provider-stream';

const ROUNDS = Number(process.env.BENCH_MODEL_ROUNDS ?? 7);
const KEY = 'test-key-openai';
/** A reply like a fast model's: 60 ms before the first byte, then 300 pieces of 4 characters 3 ms apart. */
const REPLY = { text: 'word'.repeat(300), pieceChars: 4, paceMs: 3, firstByteMs: 60 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** CPU ms of this process's children (the model agent), from /proc; null where there is no /proc. */
function childrenCpuMs(): number | null {
  try {
    const tick = 10; // USER_HZ is 100 on Linux
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map((pid) => readFileSync(`/proc/${pid}/stat`, 'utf8'))
      .map((stat) => stat.slice(stat.lastIndexOf(')') + 2).split(' '))
      .filter((fields) => Number(fields[1]) === process.pid)
      .reduce((sum, fields) => sum + (Number(fields[11]) + Number(fields[12])) * tick, 0);
  } catch {
    return null;
  }
}
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const provider = await startOpenAiServer({
  apiKey: KEY,
  models: ['bench-model'],
  fallback: { text: 'Bench title' },
});
process.env.OPENAI_BASE_URL = provider.baseURL;
process.env.OPENAI_API_KEY = KEY;
const built = fileURLToPath(new URL('../../out/node/model-agent.js', import.meta.url));
if (existsSync(built)) process.env.AGENTDESK_MODEL_AGENT_JS ??= built;
const service = await startTestService();
try {
  const token = (await signIn(service)).access_token;
  const agentId = await firstAgentId(service, token);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const base = `${service.url}/api/v2/me/agents/${agentId}/conversations`;
  const conversation = ((await (await fetch(base, { method: 'POST', headers })).json()) as { id: string }).id;
  const events = await fetch(`${base}/${conversation}/events`, { headers });

  // One reader for the whole run; each turn waits for its own `done`.
  let turn: { id: string; start: number; timed: Timed; done: () => void } | null = null;
  const reading = readSse(events.body!, (event, data, at) => {
    if (!turn) return false;
    const parsed = JSON.parse(data) as { text?: string; turnId?: string };
    if (event === 'chunk' && parsed.turnId === turn.id) {
      const text = parsed.text ?? '';
      if (!turn.timed.chars) turn.timed.first = at - turn.start;
      turn.timed.last = at - turn.start;
      turn.timed.chars += text.length;
    } else if ((event === 'done' && parsed.turnId === turn.id) || event === 'error') {
      if (event === 'error') console.error(`model agent: the turn failed: ${data}`);
      turn.done();
    }
    return false;
  });
  reading.catch(() => undefined); // ends when the service closes
  const throughService = async (): Promise<Timed> => {
    provider.reply(REPLY);
    const cpuBefore = { own: ownCpuMs(), agent: childrenCpuMs() };
    const finished = new Promise<void>((resolve) => {
      turn = {
        id: randomUUID(),
        start: performance.now(),
        timed: { first: 0, last: 0, chars: 0 },
        done: resolve,
      };
    });
    const sent = await fetch(`${base}/${conversation}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: 'go', turnId: turn!.id }),
    });
    if (sent.status !== 202) throw new Error(`POST messages answered ${sent.status}: ${await sent.text()}`);
    await finished;
    const asked = provider.modelRequests().at(-1)!;
    untilAsked.push(asked.arrivedAt - turn!.start);
    const agentAfter = childrenCpuMs();
    cpuPerTurn.push({
      own: ownCpuMs() - cpuBefore.own,
      agent: agentAfter === null || cpuBefore.agent === null ? null : agentAfter - cpuBefore.agent,
    });
    const timed = turn!.timed;
    turn = null;
    if (timed.chars !== REPLY.text.length)
      throw new Error(`the path delivered ${timed.chars} of ${REPLY.text.length} characters`);
    return timed;
  };

  const untilAsked: number[] = [];
  const cpuPerTurn: { own: number; agent: number | null }[] = [];
  await throughService(); // spawns and warms the agent (and its first reply's title)
  const direct: Timed[] = [];
  const path: Timed[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    provider.reply(REPLY);
    direct.push(await providerStream(provider.baseURL, KEY));
    path.push(await throughService());
  }
  const f = pathRows(
    {
      id: 'model',
      firstText: 'model agent: time to first text through the service, ÷ the provider’s own',
      rate: 'model agent: text rate through the service, ÷ the provider’s own',
    },
    path,
    direct,
  );
  console.log(
    `model agent: first text ${f.first.toFixed(1)} ms through the service vs ${f.firstDirect.toFixed(1)} ms from the provider; ` +
      `${f.rate.toFixed(0)} vs ${f.rateDirect.toFixed(0)} characters/s (${ROUNDS} turns each, medians); ` +
      `the provider was asked ${median(untilAsked.slice(1)).toFixed(1)} ms after the message was sent`,
  );
  // What a streamed reply costs the machine: the service's process (with the provider and this reader in it) and the agent's.
  const measured = cpuPerTurn.slice(1);
  const agentCpu = measured.map((turn) => turn.agent).filter((ms): ms is number => ms !== null);
  console.log(
    `model agent: CPU per reply of ${REPLY.text.length} characters in ${REPLY.text.length / REPLY.pieceChars} pieces: ` +
      `${median(measured.map((turn) => turn.own)).toFixed(0)} ms in the service's process (the scripted provider and ` +
      `this reader in it too), ${agentCpu.length ? `${median(agentCpu).toFixed(0)} ms` : '?'} in the model agent's (medians)`,
  );
} finally {
  await service.cleanup();
  await provider.close();
}
process.exit(0);
