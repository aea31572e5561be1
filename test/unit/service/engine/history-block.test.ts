import { describe, expect, it } from 'vitest';
import { HISTORY_META_KEY, historyBlock } from '../../../../src/service/engine/prompt-blocks';
import { readPrompt } from '../../../../src/service/agent-kit/prompt-reading';

describe('the history block a fork’s agent is given', () => {
  const history = [
    { role: 'user' as const, content: 'the cat is Tom' },
    { role: 'assistant' as const, content: 'Noted.' },
  ];

  it('reads as text to any agent, and carries the messages as data', () => {
    const block = historyBlock(history);
    expect(block.type).toBe('text');
    const text = block.type === 'text' ? block.text : '';
    expect(text).toContain('The person said:\nthe cat is Tom');
    expect(text).toContain('You said:\nNoted.');
    expect(block._meta?.[HISTORY_META_KEY]).toEqual(history);
  });

  it('the demo agent takes it as earlier messages, not as the person’s new text', () => {
    const read = readPrompt([historyBlock(history), { type: 'text', text: 'list files' }]);
    expect(read.text).toBe('list files');
    expect(read.earlier).toEqual([
      { role: 'user', text: 'the cat is Tom' },
      { role: 'assistant', text: 'Noted.' },
    ]);
    expect(readPrompt([{ type: 'text', text: 'hi' }]).earlier).toEqual([]);
  });
});
