import { beforeEach, describe, expect, it } from 'vitest';
import { newConversationDraft, selectDraft, useDraftsStore } from '../../../src/renderer/stores/drafts-store';

// What was typed while a new conversation was being made joins that conversation's draft (Composer's carry).
describe('carrying a new conversation draft', () => {
  const from = newConversationDraft('a1');
  const draft = (key: string) => selectDraft(key)(useDraftsStore.getState());
  beforeEach(() => useDraftsStore.setState({ drafts: {} }));

  it('moves the text into an empty draft as it was typed', () => {
    useDraftsStore.getState().setText(from, 'typed while it was made');
    useDraftsStore.getState().carry(from, 'c1');
    expect(draft('c1').text).toBe('typed while it was made');
    expect(useDraftsStore.getState().drafts[from]).toBeUndefined();
  });

  it('keeps the words of a draft already there apart from what is carried in', () => {
    useDraftsStore.getState().setText('c1', 'written here before');
    useDraftsStore.getState().setText(from, 'typed while it was made');
    useDraftsStore.getState().carry(from, 'c1');
    expect(draft('c1').text).toBe('written here before\ntyped while it was made');
  });

  it('changes nothing when nothing was typed', () => {
    useDraftsStore.getState().setText('c1', 'written here before');
    useDraftsStore.getState().carry(from, 'c1');
    expect(draft('c1').text).toBe('written here before');
  });
});
