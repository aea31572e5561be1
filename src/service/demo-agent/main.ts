/**
 * Entry of the built-in demo agent: speaks ACP as newline-delimited JSON on
 * stdin/stdout (stderr is for diagnostics). Started by the engine layer with
 * cwd set to the agent's workspace. `AGENTDESK_DEMO_PACE_MS` slows streaming
 * down for demos (default 0).
 */
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk/unstable';
import { createDemoAgent } from './demo-agent';

const paceMs = Number(process.env.AGENTDESK_DEMO_PACE_MS ?? 0) || 0;

const stream = ndJsonStream(
  Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
  Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
);

const connection = createDemoAgent({
  paceMs,
  crash: () =>
    new Promise<never>(() => {
      // Let what was already written reach the client, then die mid-turn.
      process.stdout.write('', () => process.exit(70));
    }),
}).connect(stream);

// The client closed stdin: nothing more to serve.
void connection.closed.finally(() => process.exit(0));
