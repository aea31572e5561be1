import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { textEveryMs, UpdateSender } from '../../../../src/service/model-agent/update-sender';

/** What the agent told the client, as `kind:text` (text updates) or the update's kind. */
function recorder() {
  const sent: string[] = [];
  const notify = async (update: SessionUpdate): Promise<void> => {
    const content = 'content' in update ? (update.content as { text?: string }) : undefined;
    sent.push(content?.text !== undefined ? `${update.sessionUpdate}:${content.text}` : update.sessionUpdate);
  };
  return { sent, sender: new UpdateSender(notify) };
}

describe('UpdateSender', () => {
  // The frame is timed with setTimeout and performance.now: both are Vitest's fake clock here.
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('sends the first piece at once and joins what follows within a frame into one message', async () => {
    const { sent, sender } = recorder();
    sender.text('agent_message_chunk', 'Hel');
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['agent_message_chunk:Hel']);
    for (const piece of ['l', 'o', ',', ' ']) {
      sender.text('agent_message_chunk', piece);
      await vi.advanceTimersByTimeAsync(3);
    }
    expect(sent).toHaveLength(1); // held for the frame
    await vi.advanceTimersByTimeAsync(textEveryMs);
    expect(sent).toEqual(['agent_message_chunk:Hel', 'agent_message_chunk:lo, ']);
  });

  it('sends a piece at once after a pause longer than a frame', async () => {
    const { sent, sender } = recorder();
    sender.text('agent_message_chunk', 'one');
    await vi.advanceTimersByTimeAsync(textEveryMs * 3);
    sender.text('agent_message_chunk', 'two');
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['agent_message_chunk:one', 'agent_message_chunk:two']);
  });

  it('keeps thinking and reply apart and in order', async () => {
    const { sent, sender } = recorder();
    sender.text('agent_thought_chunk', 'hmm');
    sender.text('agent_message_chunk', 'A');
    sender.text('agent_message_chunk', 'B');
    sender.text('agent_thought_chunk', 'so');
    await vi.advanceTimersByTimeAsync(textEveryMs * 4);
    expect(sent).toEqual(['agent_thought_chunk:hmm', 'agent_message_chunk:AB', 'agent_thought_chunk:so']);
  });

  it('sends the reply’s first piece at once after thinking, and holds the pieces after it', async () => {
    const { sent, sender } = recorder();
    sender.text('agent_thought_chunk', 'The person greets me.');
    await vi.advanceTimersByTimeAsync(2);
    sender.text('agent_message_chunk', 'Hello');
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['agent_thought_chunk:The person greets me.', 'agent_message_chunk:Hello']);
    sender.text('agent_message_chunk', '!');
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(textEveryMs);
    expect(sent.at(-1)).toBe('agent_message_chunk:!');
  });

  it('a flush sends the held text without waiting for its frame', async () => {
    const { sent, sender } = recorder();
    sender.text('agent_message_chunk', 'first');
    await vi.advanceTimersByTimeAsync(0);
    sender.text('agent_message_chunk', ' rest');
    await sender.flush(); // no clock moved: a flush that waited for the frame would never end
    expect(sent).toEqual(['agent_message_chunk:first', 'agent_message_chunk: rest']);
  });

  it('another update goes after the text queued before it, at once', async () => {
    const { sent, sender } = recorder();
    sender.text('agent_message_chunk', 'Let me look.');
    await vi.advanceTimersByTimeAsync(0);
    sender.text('agent_message_chunk', ' Reading');
    await sender.send({
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 'Read a.md',
      status: 'pending',
    });
    expect(sent).toEqual(['agent_message_chunk:Let me look.', 'agent_message_chunk: Reading', 'tool_call']);
  });
});
