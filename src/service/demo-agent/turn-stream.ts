import { setTimeout as sleep } from 'node:timers/promises';
import { methods } from '@agentclientprotocol/sdk/unstable';
import type {
  AgentContext,
  ClientCapabilities,
  SessionUpdate,
  StopReason,
  ToolCallStatus,
  ToolKind,
} from '@agentclientprotocol/sdk/unstable';
import type { DemoSession } from './session-store';

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

export interface ToolFields {
  title?: string;
  kind?: ToolKind;
  status: ToolCallStatus;
  path?: string;
  detail?: string;
}

/**
 * What a demo turn says to the client, paced like a real agent: thoughts, reply text in pieces of
 * a few words, tool calls and their updates. Keeps the reply and thoughts for the usage report.
 */
export class DemoTurnStream {
  reply = '';
  thoughts = '';

  constructor(readonly ctx: DemoTurnContext) {}

  get cancelled(): boolean {
    return this.ctx.signal.aborted;
  }

  async send(update: SessionUpdate): Promise<void> {
    await this.ctx.client.notify(methods.client.session.update, { sessionId: this.ctx.session.id, update });
  }

  private async pace(): Promise<void> {
    if (this.ctx.paceMs > 0) await sleep(this.ctx.paceMs).catch(() => undefined);
    else await new Promise((resolve) => setImmediate(resolve));
  }

  async think(lines: string[]): Promise<void> {
    for (const line of lines) {
      if (this.cancelled) return;
      this.thoughts += `${line}\n`;
      await this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `${line}\n` } });
      await this.pace();
    }
  }

  /** Streams text in pieces of a few words; false when cancelled part-way. */
  async say(text: string): Promise<boolean> {
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

  /** Says its last words: the turn ends, or counts as cancelled when stopped part-way. */
  async sayLast(text: string): Promise<StopReason> {
    return (await this.say(text)) ? 'end_turn' : 'cancelled';
  }

  /** Marks a tool call failed with `detail`, then says why in the reply and ends the turn. */
  async toolFailed(id: string, detail: string, words: string): Promise<StopReason> {
    await this.tool(id, { status: 'failed', detail });
    return this.sayLast(words);
  }

  /** A tool call (`first`: its opening `tool_call`) or an update of it. */
  async tool(id: string, fields: ToolFields, first = false): Promise<void> {
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
}
