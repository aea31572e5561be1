import { describe, expect, it } from 'vitest';
import { transcriptContext } from '../../../src/renderer/model/transcript-context';
import { emptyStream, userMessageSent, userThumbnailsShown } from '../../../src/renderer/model/turn-reducer';

describe('transcriptContext: what each message may offer', () => {
  it('a reply retries the person’s message before it; only the last reply and last message are marked', () => {
    const contexts = transcriptContext([
      null,
      { role: 'user', text: 'one' },
      { role: 'reply' },
      { role: 'user', text: 'two' },
      { role: 'reply' },
    ]);
    expect(contexts).toEqual([
      { lastReply: false, lastUser: false },
      { retryText: 'one', lastReply: false, lastUser: false },
      { retryText: 'one', lastReply: false, lastUser: false },
      { retryText: 'two', lastReply: false, lastUser: true },
      { retryText: 'two', lastReply: true, lastUser: false },
    ]);
  });

  it('a reply with no message of the person before it (the history was cut) has nothing to retry', () => {
    expect(transcriptContext([{ role: 'reply' }, { role: 'user', text: 'x' }])[0]).toEqual({
      lastReply: true,
      lastUser: false,
    });
    expect(transcriptContext([])).toEqual([]);
  });
});

describe('userThumbnailsShown', () => {
  it('puts each picture on its attachment of that message only', () => {
    const attachments = [
      { name: 'a.png', mimeType: 'image/png', size: 1 },
      { name: 'b.txt', mimeType: 'text/plain', size: 1 },
    ];
    let state = userMessageSent(emptyStream, { key: 'k1', text: 'x', attachments });
    state = userMessageSent(state, { key: 'k2', text: 'y', attachments });
    state = userThumbnailsShown(state, 'k1', ['data:image/jpeg;base64,AA', null]);
    const [first, second] = state.items;
    expect(first).toMatchObject({
      attachments: [{ name: 'a.png', thumbnail: 'data:image/jpeg;base64,AA' }, { name: 'b.txt' }],
    });
    expect(first?.kind === 'user' && first.attachments[1]).not.toHaveProperty('thumbnail');
    expect(second?.kind === 'user' && second.attachments[0]).not.toHaveProperty('thumbnail');
  });
});
