import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { methods, RequestError } from '@agentclientprotocol/sdk/unstable';
import type {
  AgentContext,
  ClientCapabilities,
  ContentBlock,
  SessionUpdate,
  StopReason,
  ToolCallStatus,
  ToolKind,
} from '@agentclientprotocol/sdk/unstable';
import { confinedPath, readWorkspaceText, writeWorkspaceFile } from '../agents/workspace-io';
import { displayPath } from '../engine/workspace-path';
import { parseDirective, type Directive } from './directives';
import { DEMO_STATE_DIR, type DemoSession } from './session-store';

/** What one prompt of the demo agent needs from its surroundings. */
export interface DemoTurnContext {
  client: AgentContext;
  session: DemoSession;
  clientCaps: ClientCapabilities;
  /** Aborts on `session/cancel` (or a JSON-RPC cancel of the prompt). */
  signal: AbortSignal;
  /** Pause between streamed pieces; 0 only yields to the event loop. */
  paceMs: number;
  /** Ends the process (the `crash` directive); never settles. */
  crash: () => Promise<never>;
}

export interface ReceivedAttachment {
  name: string;
  mimeType: string;
  bytes: number;
}

/** Splits a prompt into its text and the attachments that came with it. */
export function readPrompt(blocks: ContentBlock[]): { text: string; attachments: ReceivedAttachment[] } {
  const texts: string[] = [];
  const attachments: ReceivedAttachment[] = [];
  const nameOf = (uri: string | null | undefined, fallback: string) => {
    const last = uri?.split('/').pop();
    return last ? decodeURIComponent(last) : fallback;
  };
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'image':
      case 'audio':
        attachments.push({
          name: nameOf('uri' in block ? block.uri : null, block.type),
          mimeType: block.mimeType,
          bytes: Buffer.from(block.data, 'base64').length,
        });
        break;
      case 'resource': {
        const r = block.resource;
        const bytes = 'text' in r ? Buffer.byteLength(r.text) : Buffer.from(r.blob, 'base64').length;
        attachments.push({
          name: nameOf(r.uri, 'resource'),
          mimeType: r.mimeType ?? 'application/octet-stream',
          bytes,
        });
        break;
      }
      case 'resource_link':
        attachments.push({
          name: block.name,
          mimeType: block.mimeType ?? 'application/octet-stream',
          bytes: block.size ?? 0,
        });
        break;
    }
  }
  return { text: texts.join('\n'), attachments };
}

/** Token estimate: about four characters a token, as rough as it is predictable. */
const tokens = (text: string) => Math.ceil(text.length / 4);

export const DEMO_MODELS = [
  { id: 'demo-fast', label: 'Demo Fast', contextSize: 32_768, costPerToken: 0.5e-6 },
  { id: 'demo-deep', label: 'Demo Deep', contextSize: 131_072, costPerToken: 2e-6 },
] as const;

/** Runs one prompt: thinks, acts on the directive, streams the reply, reports usage. */
export async function runDemoTurn(ctx: DemoTurnContext, prompt: ContentBlock[]) {
  const { session } = ctx;
  const { text, attachments } = readPrompt(prompt);
  const directive = parseDirective(text);
  const turn = new DemoTurn(ctx);

  session.messages.push({ role: 'user', text });
  const stopReason = await turn.run(directive, text, attachments);
  if (turn.reply) session.messages.push({ role: 'assistant', text: turn.reply });

  const model = DEMO_MODELS.find((m) => m.id === session.model) ?? DEMO_MODELS[0];
  session.inputTokens += tokens(session.messages.map((m) => m.text).join('\n'));
  session.outputTokens += tokens(turn.reply + turn.thoughts);
  const used = tokens(session.messages.map((m) => m.text).join('\n'));
  const cost = (session.inputTokens + 3 * session.outputTokens) * model.costPerToken;
  await turn.send({
    sessionUpdate: 'usage_update',
    used,
    size: model.contextSize,
    cost: { amount: Math.round(cost * 1e6) / 1e6, currency: 'USD' },
  });
  return {
    stopReason,
    usage: {
      inputTokens: session.inputTokens,
      outputTokens: session.outputTokens,
      totalTokens: session.inputTokens + session.outputTokens,
    },
  };
}

class DemoTurn {
  reply = '';
  thoughts = '';

  constructor(private readonly ctx: DemoTurnContext) {}

  async send(update: SessionUpdate): Promise<void> {
    await this.ctx.client.notify(methods.client.session.update, { sessionId: this.ctx.session.id, update });
  }

  private async pace(): Promise<void> {
    if (this.ctx.paceMs > 0) await sleep(this.ctx.paceMs).catch(() => undefined);
    else await new Promise((resolve) => setImmediate(resolve));
  }

  private get cancelled() {
    return this.ctx.signal.aborted;
  }

  private async think(lines: string[]): Promise<void> {
    for (const line of lines) {
      if (this.cancelled) return;
      this.thoughts += `${line}\n`;
      await this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `${line}\n` } });
      await this.pace();
    }
  }

  /** Streams text in pieces of a few words; false when cancelled part-way. */
  private async say(text: string): Promise<boolean> {
    const words = text.match(/\S+\s*|\s+/g) ?? [];
    for (let i = 0; i < words.length; i += 3) {
      if (this.cancelled) return false;
      const piece = words.slice(i, i + 3).join('');
      this.reply += piece;
      await this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: piece } });
      await this.pace();
    }
    return !this.cancelled;
  }

  private async tool(
    id: string,
    fields: { title?: string; kind?: ToolKind; status: ToolCallStatus; path?: string; detail?: string },
    first = false,
  ): Promise<void> {
    const common = {
      toolCallId: id,
      status: fields.status,
      ...(fields.kind ? { kind: fields.kind } : {}),
      ...(fields.path ? { locations: [{ path: fields.path }] } : {}),
      ...(fields.detail
        ? { content: [{ type: 'content' as const, content: { type: 'text' as const, text: fields.detail } }] }
        : {}),
    };
    if (first) await this.send({ sessionUpdate: 'tool_call', title: fields.title ?? id, ...common });
    else
      await this.send({
        sessionUpdate: 'tool_call_update',
        ...(fields.title ? { title: fields.title } : {}),
        ...common,
      });
  }

  async run(directive: Directive, text: string, attachments: ReceivedAttachment[]): Promise<StopReason> {
    await this.think(this.thoughtsFor(directive));
    if (this.cancelled) return 'cancelled';
    if (attachments.length > 0 && directive.kind !== 'echo') {
      if (!(await this.say(`${describeAttachments(attachments)}\n\n`))) return 'cancelled';
    }
    switch (directive.kind) {
      case 'list':
        return this.listFiles();
      case 'read':
        return this.readFile(directive.path);
      case 'write':
        return this.writeFile(directive.path, directive.text);
      case 'wait':
        return this.wait(directive.seconds);
      case 'fail':
        await this.say('Failing on purpose, as asked.');
        throw new RequestError(-32603, 'Failed on purpose (the "fail" directive).');
      case 'crash':
        await this.say('Crashing now, as asked.');
        return await this.ctx.crash();
      case 'echo': {
        const said = directive.text || '(nothing to echo)';
        const names = attachments.length > 0 ? describeAttachments(attachments) : 'No attachments.';
        return (await this.say(`${said}\n\n${names}`)) ? 'end_turn' : 'cancelled';
      }
      case 'chat':
        return (await this.say(this.chatReply(text))) ? 'end_turn' : 'cancelled';
    }
  }

  private thoughtsFor(directive: Directive): string[] {
    const earlier = this.ctx.session.messages.length - 1;
    const specific: Record<Directive['kind'], string> = {
      list: 'They want to see the files in the workspace.',
      read: `They want to see ${'path' in directive ? directive.path : 'a file'}.`,
      write: `They want me to write ${'path' in directive ? directive.path : 'a file'}; I must ask before writing.`,
      wait: `They asked me to wait ${'seconds' in directive ? directive.seconds : 0} seconds.`,
      fail: 'They asked me to fail on purpose.',
      crash: 'They asked me to crash the agent process.',
      echo: 'They want their words and attachments echoed back.',
      chat:
        earlier > 0
          ? `We have exchanged ${earlier} messages so far.`
          : 'This is the start of our conversation.',
    };
    const lines = ['Reading the message.', specific[directive.kind]];
    if (this.ctx.session.model === 'demo-deep') lines.push('Thinking it over more carefully (demo-deep).');
    return lines;
  }

  private chatReply(text: string): string {
    const userMessages = this.ctx.session.messages.filter((m) => m.role === 'user');
    const count = userMessages.length;
    const previous = userMessages[count - 2]?.text;
    const memory =
      previous === undefined
        ? 'This is the first message of our conversation.'
        : `This is message ${count} of our conversation; before this you said: "${previous}".`;
    return [
      `Hello! You said: "${text.trim()}".`,
      memory,
      'I am the built-in demo agent. Try "list files", "read <path>", "write <path>" with a fenced block, "wait 5" or "fail".',
      `(model: ${this.ctx.session.model})`,
    ].join('\n');
  }

  private async listFiles(): Promise<StopReason> {
    const id = `call_${randomUUID()}`;
    const cwd = this.ctx.session.cwd;
    await this.tool(id, { title: 'List files', kind: 'read', status: 'in_progress', path: cwd }, true);
    const files = await listWorkspace(cwd);
    const listing = files.length > 0 ? files.join('\n') : '(the workspace is empty)';
    await this.tool(id, { status: 'completed', detail: `${files.length} entries` });
    const ok = await this.say(`The workspace has ${files.length} entries:\n${listing}`);
    return ok ? 'end_turn' : 'cancelled';
  }

  private async readFile(path: string): Promise<StopReason> {
    const id = `call_${randomUUID()}`;
    const cwd = this.ctx.session.cwd;
    const abs = await confinedPath(cwd, path);
    const shown = abs ? displayPath(cwd, abs) : path;
    await this.tool(
      id,
      { title: `Read ${shown}`, kind: 'read', status: 'in_progress', path: abs ?? undefined },
      true,
    );
    if (!abs) {
      await this.tool(id, { status: 'failed', detail: 'That path is outside the workspace.' });
      return (await this.say(`I can only read files inside the workspace, and ${path} is not.`))
        ? 'end_turn'
        : 'cancelled';
    }
    let content: string;
    try {
      content = this.ctx.clientCaps.fs?.readTextFile
        ? (
            await this.ctx.client.request(methods.client.fs.readTextFile, {
              sessionId: this.ctx.session.id,
              path: abs,
            })
          ).content
        : await readWorkspaceText(cwd, abs);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await this.tool(id, { status: 'failed', detail: reason });
      return (await this.say(`I could not read ${shown}: ${reason}`)) ? 'end_turn' : 'cancelled';
    }
    await this.tool(id, { status: 'completed', detail: `${Buffer.byteLength(content)} bytes` });
    const body = content.length > 20_000 ? `${content.slice(0, 20_000)}\n…` : content;
    return (await this.say(`Here is ${shown}:\n\`\`\`\n${body}\n\`\`\``)) ? 'end_turn' : 'cancelled';
  }

  private async writeFile(path: string, text: string | null): Promise<StopReason> {
    if (text === null) {
      const hint = `To write ${path}, put the content in a fenced code block (\`\`\`) after the first line.`;
      return (await this.say(hint)) ? 'end_turn' : 'cancelled';
    }
    const id = `call_${randomUUID()}`;
    const { session } = this.ctx;
    const abs = await confinedPath(session.cwd, path);
    const shown = abs ? displayPath(session.cwd, abs) : path;
    const title = `Write ${shown}`;
    await this.tool(id, { title, kind: 'edit', status: 'pending', path: abs ?? undefined }, true);
    if (!abs) {
      await this.tool(id, { status: 'failed', detail: 'That path is outside the workspace.' });
      return (await this.say(`I can only write inside the workspace, and ${path} is not.`))
        ? 'end_turn'
        : 'cancelled';
    }

    if (!session.allowWrites) {
      const answer = await this.ctx.client.request(
        methods.client.session.requestPermission,
        {
          sessionId: session.id,
          toolCall: {
            toolCallId: id,
            title,
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
        { cancellationSignal: this.ctx.signal },
      );
      const outcome = answer.outcome;
      if (outcome.outcome === 'cancelled' || this.cancelled) {
        await this.tool(id, { status: 'failed', detail: 'Cancelled.' });
        return 'cancelled';
      }
      if (outcome.optionId === 'allow-always') session.allowWrites = true;
      if (outcome.optionId !== 'allow-once' && outcome.optionId !== 'allow-always') {
        await this.tool(id, { status: 'failed', detail: 'Permission refused.' });
        return (await this.say(`I did not write ${shown}: permission was refused.`))
          ? 'end_turn'
          : 'cancelled';
      }
    }

    await this.tool(id, { status: 'in_progress' });
    try {
      if (this.ctx.clientCaps.fs?.writeTextFile) {
        await this.ctx.client.request(methods.client.fs.writeTextFile, {
          sessionId: session.id,
          path: abs,
          content: text,
        });
      } else {
        await writeWorkspaceFile(session.cwd, abs, text);
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await this.tool(id, { status: 'failed', detail: reason });
      return (await this.say(`I could not write ${shown}: ${reason}`)) ? 'end_turn' : 'cancelled';
    }
    const bytes = Buffer.byteLength(text);
    await this.tool(id, { status: 'completed', detail: `Wrote ${bytes} bytes.` });
    return (await this.say(`I wrote ${bytes} bytes to ${shown}.`)) ? 'end_turn' : 'cancelled';
  }

  private async wait(seconds: number): Promise<StopReason> {
    if (!(await this.say(`Waiting ${seconds} seconds…\n`))) return 'cancelled';
    const id = `call_${randomUUID()}`;
    await this.tool(id, { title: `Wait ${seconds} s`, kind: 'other', status: 'in_progress' }, true);
    try {
      await sleep(seconds * 1000, undefined, { signal: this.ctx.signal });
    } catch {
      await this.tool(id, { status: 'failed', detail: 'Cancelled.' });
      return 'cancelled';
    }
    await this.tool(id, { status: 'completed' });
    return (await this.say(`Done waiting ${seconds} seconds.`)) ? 'end_turn' : 'cancelled';
  }
}

function describeAttachments(attachments: ReceivedAttachment[]): string {
  const items = attachments.map((a) => `${a.name} (${a.mimeType}, ${a.bytes} bytes)`);
  const noun = attachments.length === 1 ? 'attachment' : 'attachments';
  return `I received ${attachments.length} ${noun}: ${items.join(', ')}.`;
}

/** Workspace entries (folders end in `/`), without the demo agent's own state folder. */
async function listWorkspace(root: string, maxEntries = 200): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, prefix: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (out.length >= maxEntries) return;
      if (
        depth === 0 &&
        (entry.name === DEMO_STATE_DIR || entry.name === '.git' || entry.name === 'node_modules')
      ) {
        continue;
      }
      const rel = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        out.push(`${rel}/`);
        if (depth < 4) await walk(join(dir, entry.name), `${rel}/`, depth + 1);
      } else {
        out.push(rel);
      }
    }
  };
  await walk(root, '', 0);
  return out;
}
