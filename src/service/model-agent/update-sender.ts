import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';

type TextKind = 'agent_message_chunk' | 'agent_thought_chunk';

/**
 * Sends a turn's session updates in order without making the model's stream wait on each piece: text
 * that arrives while a notification is on its way is joined and goes out as one, so a fast model's
 * rate survives a busy pipe. Any other update (a tool call, usage) waits for the text before it.
 */
export class UpdateSender {
  private readonly queue: { kind: TextKind; text: string }[] = [];
  private pumping: Promise<void> | null = null;

  constructor(private readonly notify: (update: SessionUpdate) => Promise<void>) {}

  /** Queues a piece of reply text or thinking; never waits. */
  text(kind: TextKind, text: string): void {
    const last = this.queue.at(-1);
    if (last?.kind === kind) last.text += text;
    else this.queue.push({ kind, text });
    this.pumping ??= this.pump();
  }

  /** Everything queued so far has been sent. */
  async flush(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  /** Sends an update after the text queued before it. */
  async send(update: SessionUpdate): Promise<void> {
    await this.flush();
    await this.notify(update);
  }

  private async pump(): Promise<void> {
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        await this.notify({ sessionUpdate: next.kind, content: { type: 'text', text: next.text } });
      }
    } finally {
      this.pumping = null;
    }
  }
}
