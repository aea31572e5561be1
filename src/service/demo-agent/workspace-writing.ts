import { randomUUID } from 'node:crypto';
import { methods } from '@agentclientprotocol/sdk/unstable';
import type { StopReason } from '@agentclientprotocol/sdk/unstable';
import { confinedPath, readWorkspaceText, writeWorkspaceFile } from '../workspace/workspace-io';
import { displayPath } from '../workspace/agent-folders';
import type { DemoTurnStream } from './turn-stream';

type WriteAnswer = 'allowed' | 'refused' | 'cancelled';

/**
 * `write <path>` with a fenced block: an `edit` tool call that asks permission (unless the
 * session always allows writes), then writes through the client's fs when it offers one.
 */
export async function writeFile(
  stream: DemoTurnStream,
  path: string,
  text: string | null,
): Promise<StopReason> {
  if (text === null) {
    return stream.sayLast(
      `To write ${path}, put the content in a fenced code block (\`\`\`) after the first line.`,
    );
  }
  const { ctx } = stream;
  const { session } = ctx;
  const id = `call_${randomUUID()}`;
  const abs = await confinedPath(session.cwd, path);
  const shown = abs ? displayPath(session.cwd, abs) : path;
  await stream.tool(
    id,
    { title: `Write ${shown}`, kind: 'edit', status: 'pending', path: abs ?? undefined },
    true,
  );
  if (!abs) {
    return stream.toolFailed(
      id,
      'That path is outside the workspace.',
      `I can only write inside the workspace, and ${path} is not.`,
    );
  }

  if (!session.allowWrites) {
    const answer = await askToWrite(stream, id, abs, shown, text);
    if (answer === 'cancelled') {
      await stream.tool(id, { status: 'failed', detail: 'Cancelled.' });
      return 'cancelled';
    }
    if (answer === 'refused') {
      return stream.toolFailed(
        id,
        'Permission refused.',
        `I did not write ${shown}: permission was refused.`,
      );
    }
  }

  await stream.tool(id, { status: 'in_progress' });
  try {
    if (ctx.clientCaps.fs?.writeTextFile) {
      await ctx.client.request(methods.client.fs.writeTextFile, {
        sessionId: session.id,
        path: abs,
        content: text,
      });
    } else {
      await writeWorkspaceFile(session.cwd, abs, text);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return stream.toolFailed(id, reason, `I could not write ${shown}: ${reason}`);
  }
  const bytes = Buffer.byteLength(text);
  await stream.tool(id, { status: 'completed', detail: `Wrote ${bytes} bytes.` });
  return stream.sayLast(`I wrote ${bytes} bytes to ${shown}.`);
}

/** Asks the client (allow once / always allow / reject); "always" holds for the rest of the session. */
async function askToWrite(
  stream: DemoTurnStream,
  id: string,
  abs: string,
  shown: string,
  text: string,
): Promise<WriteAnswer> {
  const { ctx } = stream;
  const { session } = ctx;
  const answer = await ctx.client.request(
    methods.client.session.requestPermission,
    {
      sessionId: session.id,
      toolCall: {
        toolCallId: id,
        title: `Write ${shown}`,
        kind: 'edit',
        status: 'pending',
        locations: [{ path: abs }],
        // What the write will do, so the person can judge it: the file's text before and after.
        content: [
          {
            type: 'diff',
            path: abs,
            oldText: await readWorkspaceText(session.cwd, abs).catch(() => null),
            newText: text,
          },
        ],
        rawInput: { path: shown, content: text },
      },
      options: [
        { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'allow-always', name: 'Always allow writes', kind: 'allow_always' },
        { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
      ],
    },
    { cancellationSignal: ctx.signal },
  );
  const outcome = answer.outcome;
  if (outcome.outcome === 'cancelled' || stream.cancelled) return 'cancelled';
  if (outcome.optionId === 'allow-always') session.allowWrites = true;
  return outcome.optionId === 'allow-once' || outcome.optionId === 'allow-always' ? 'allowed' : 'refused';
}
