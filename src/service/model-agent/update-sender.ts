import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';

type TextKind = 'agent_message_chunk' | 'agent_thought_chunk';

/**
 * Text goes out at most once a frame. A fast model streams hundreds of pieces a second; each sent alone
 * costs the agent, the service and the window a message of their own (about 1 ms of CPU each along the
 * way), while a screen shows at most one change a frame. The first piece after a pause goes at once, as
 * does the first of the reply after thinking (or of thinking after the reply).
 */
export const textEveryMs = 16;

/**
 * Sends a turn's session updates in order without making the model's stream wait on each piece: text
 * that arrives while a notification is on its way, or within a frame of the last one, is joined and goes
 * out as one. Any other update (a tool call, usage) sends the text before it at once, then goes itself.
 */
export class UpdateSender {
  private readonly queue: { kind: TextKind; text: string }[] = [];
  private pumping: Promise<void> | null = null;
  private lastSentAt = -Infinity;
  private lastKind: TextKind | null = null;
  /** Flushes under way: while any is, queued text is not held back for its frame. */
  private flushing = 0;
  private hurry: (() => void) | null = null;

  constructor(private readonly notify: (update: SessionUpdate) => Promise<void>) {}

  /** Queues a piece of reply text or thinking; never waits. */
  text(kind: TextKind, text: string): void {
    const last = this.queue.at(-1);
    if (last?.kind === kind) last.text += text;
    else this.queue.push({ kind, text });
    this.pumping ??= this.pump();
  }

  /** Everything queued so far has been sent (text held for its frame goes now). */
  async flush(): Promise<void> {
    this.flushing++;
    try {
      this.hurry?.();
      while (this.pumping) await this.pumping;
    } finally {
      this.flushing--;
    }
  }

  /** Sends an update after the text queued before it. */
  async send(update: SessionUpdate): Promise<void> {
    await this.flush();
    await this.notify(update);
  }

  private async pump(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        if (this.queue[0]!.kind === this.lastKind) await this.frameOver();
        const next = this.queue.shift()!;
        this.lastSentAt = performance.now();
        this.lastKind = next.kind;
        await this.notify({ sessionUpdate: next.kind, content: { type: 'text', text: next.text } });
      }
    } finally {
      this.pumping = null;
    }
  }

  /** Until a frame has passed since the last text went, or a flush asks for everything now. */
  private frameOver(): Promise<void> {
    const wait = this.lastSentAt + textEveryMs - performance.now();
    if (wait <= 0 || this.flushing > 0) return Promise.resolve();
    return new Promise((done) => {
      const over = () => {
        clearTimeout(timer);
        this.hurry = null;
        done();
      };
      const timer = setTimeout(over, wait);
      this.hurry = over;
    });
  }
}
