import { randomUUID } from 'node:crypto';
import { methods } from '@agentclientprotocol/sdk/unstable';
import type { StopReason } from '@agentclientprotocol/sdk/unstable';
import { confinedPath, readWorkspaceText } from '../workspace/workspace-io';
import { displayPath } from '../workspace/agent-folders';
import type { DemoTurnStream } from './turn-stream';

/** `read <path>`: a `read` tool call, through the client's fs when it offers one, then the text. */
export async function readFile(stream: DemoTurnStream, path: string): Promise<StopReason> {
  const { ctx } = stream;
  const id = `call_${randomUUID()}`;
  const cwd = ctx.session.cwd;
  const abs = await confinedPath(cwd, path);
  const shown = abs ? displayPath(cwd, abs) : path;
  await stream.tool(
    id,
    { title: `Read ${shown}`, kind: 'read', status: 'in_progress', path: abs ?? undefined },
    true,
  );
  if (!abs) {
    return stream.toolFailed(
      id,
      'That path is outside the workspace.',
      `I can only read files inside the workspace, and ${path} is not.`,
    );
  }
  let content: string;
  try {
    content = ctx.clientCaps.fs?.readTextFile
      ? (await ctx.client.request(methods.client.fs.readTextFile, { sessionId: ctx.session.id, path: abs }))
          .content
      : await readWorkspaceText(cwd, abs);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return stream.toolFailed(id, reason, `I could not read ${shown}: ${reason}`);
  }
  await stream.tool(id, { status: 'completed', detail: `${Buffer.byteLength(content)} bytes` });
  const body = content.length > 20_000 ? `${content.slice(0, 20_000)}\n…` : content;
  return stream.sayLast(`Here is ${shown}:\n\`\`\`\n${body}\n\`\`\``);
}
