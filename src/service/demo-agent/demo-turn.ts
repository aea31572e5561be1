import { RequestError } from '@agentclientprotocol/sdk/unstable';
import type { ContentBlock, StopReason } from '@agentclientprotocol/sdk/unstable';
import { chatReply, thoughtsFor } from './conversation-replies';
import { reportUsage } from './demo-models';
import { parseDirective, type Directive } from './directives';
import { describeAttachments, readPrompt, type ReceivedAttachment } from '../agent-kit/prompt-reading';
import { DemoTurnStream, type DemoTurnContext } from './turn-stream';
import { wait } from './waiting';
import { listFiles } from './workspace-listing';
import { readFile } from './workspace-reading';
import { writeFile } from './workspace-writing';

/** Runs one prompt: thinks, acts on the directive, streams the reply, reports usage. */
export async function runDemoTurn(ctx: DemoTurnContext, prompt: ContentBlock[]) {
  const { session } = ctx;
  const { text, attachments, earlier } = readPrompt(prompt);
  const stream = new DemoTurnStream(ctx);

  // A forked conversation's first prompt: remember what was said before the fork.
  if (session.messages.length === 0) session.messages.push(...earlier);
  session.messages.push({ role: 'user', text });
  const stopReason = await act(stream, parseDirective(text), text, attachments);
  if (stream.reply) session.messages.push({ role: 'assistant', text: stream.reply });
  return { stopReason, usage: await reportUsage(stream, session) };
}

/** The directive's behaviour, after the thoughts and a word on the attachments. */
async function act(
  stream: DemoTurnStream,
  directive: Directive,
  text: string,
  attachments: ReceivedAttachment[],
): Promise<StopReason> {
  await stream.think(thoughtsFor(stream.ctx.session, directive));
  if (stream.cancelled) return 'cancelled';
  if (attachments.length > 0 && directive.kind !== 'echo') {
    if (!(await stream.say(`${describeAttachments(attachments)}\n\n`))) return 'cancelled';
  }
  switch (directive.kind) {
    case 'list':
      return listFiles(stream);
    case 'read':
      return readFile(stream, directive.path);
    case 'write':
      return writeFile(stream, directive.path, directive.text);
    case 'wait':
      return wait(stream, directive.seconds);
    case 'fail':
      await stream.say('Failing on purpose, as asked.');
      throw new RequestError(
        -32603,
        'Failed on purpose: a message that starts with "fail" shows how an error looks.',
      );
    case 'crash':
      await stream.say('Crashing now, as asked.');
      return await stream.ctx.crash();
    case 'echo': {
      const said = directive.text || '(nothing to echo)';
      const names = attachments.length > 0 ? describeAttachments(attachments) : 'No attachments.';
      return stream.sayLast(`${said}\n\n${names}`);
    }
    case 'chat':
      return stream.sayLast(chatReply(stream.ctx.session, text));
  }
}
