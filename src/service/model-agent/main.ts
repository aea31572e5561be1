/**
 * Entry of the built-in model agent (engine `engine-e`): speaks ACP as newline-delimited JSON on
 * stdin/stdout (stderr is for diagnostics), started by the engine layer with cwd set to the agent's
 * workspace. The person's providers and keys arrive with each request (handoff.ts), never here.
 */
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk/unstable';
import { createModelAgent } from './model-agent';

const stream = ndJsonStream(
  Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
  Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
);

const connection = createModelAgent().connect(stream);

// The client closed stdin: nothing more to serve.
void connection.closed.finally(() => process.exit(0));
