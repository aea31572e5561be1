import type { Attachment } from '../../shared/api';

/**
 * Injection bookkeeping of one turn. Invariant: once `closing` is set no
 * message is accepted, and every accepted message is prompted before the turn
 * ends (unless the turn is cancelled or fails).
 */
export class TurnInbox {
  closing = false;
  private pending: { content: string; attachments: Attachment[] }[] = [];

  inject(content: string, attachments: Attachment[] = []): boolean {
    if (this.closing) return false;
    this.pending.push({ content, attachments });
    return true;
  }

  /** Everything injected so far, as one follow-up message; null when nothing waits. */
  take(): { content: string; attachments: Attachment[] } | null {
    if (this.pending.length === 0) return null;
    const all = this.pending;
    this.pending = [];
    return {
      content: all.map((m) => m.content).join('\n\n'),
      attachments: all.flatMap((m) => m.attachments),
    };
  }

  close(): void {
    this.closing = true;
    this.pending = [];
  }
}
