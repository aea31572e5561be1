/**
 * Child process of test/bench/turns.ts: a real local service in its own process (so its RSS is
 * its own), with one signed-in person. Prints one JSON line {url, token, agentId, pid} and runs
 * until stdin closes.
 */
import { firstAgentId, signIn, startTestService } from '../support/local-service';

const heartbeatMs = Number(process.env.BENCH_HEARTBEAT_MS ?? 25_000);
const service = await startTestService({ config: { turns: { heartbeatMs } } });
const token = (await signIn(service)).access_token;
const agentId = await firstAgentId(service, token);
process.stdout.write(`${JSON.stringify({ url: service.url, token, agentId, pid: process.pid })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void service.cleanup().finally(() => process.exit(0));
});
