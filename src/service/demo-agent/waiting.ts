import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StopReason } from '@agentclientprotocol/sdk/unstable';
import type { DemoTurnStream } from './turn-stream';

/** `wait <N>`: a long turn, as a tool call that a cancel stops at once. */
export async function wait(stream: DemoTurnStream, seconds: number): Promise<StopReason> {
  if (!(await stream.say(`Waiting ${seconds} seconds…\n`))) return 'cancelled';
  const id = `call_${randomUUID()}`;
  await stream.tool(id, { title: `Wait ${seconds} s`, kind: 'other', status: 'in_progress' }, true);
  try {
    await sleep(seconds * 1000, undefined, { signal: stream.ctx.signal });
  } catch {
    await stream.tool(id, { status: 'failed', detail: 'Cancelled.' });
    return 'cancelled';
  }
  await stream.tool(id, { status: 'completed' });
  return stream.sayLast(`Done waiting ${seconds} seconds.`);
}
