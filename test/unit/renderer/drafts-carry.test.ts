import { beforeEach, describe, expect, it } from 'vitest';
import { newConversationDraft, selectDraft, useDraftsStore } from '../../../src/renderer/stores/drafts-store';

// What was typed while a new conversation was being made joins that conversation's draft (Composer's carry).
describe('carrying a new conversation draft', () => {
  const from = newConversationDraft('a1');
  const draft = (key: string) => selectDraft(key)(useDraftsStore.getState());
  beforeEach(() => useDraftsStore.setState({ drafts: {}, carets: {} }));

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

  it('moves the caret the box left along with the words, after a draft already there', () => {
    useDraftsStore.getState().setText('c1', 'before');
    useDraftsStore.getState().setText(from, 'Note: and thanks');
    useDraftsStore.getState().keepCaret(from, { start: 5, end: 5 });
    expect(useDraftsStore.getState().carry(from, 'c1')).toEqual({
      start: 12,
      end: 12,
      text: 'before\nNote: and thanks',
    });
    expect(useDraftsStore.getState().carets[from]).toBeUndefined();
  });

  it('has no caret to give when the box left none, and forgets one kept for nothing typed', () => {
    useDraftsStore.getState().setText(from, 'typed');
    expect(useDraftsStore.getState().carry(from, 'c1')).toBeUndefined();
    useDraftsStore.getState().keepCaret(from, { start: 0, end: 0 });
    expect(useDraftsStore.getState().carry(from, 'c2')).toBeUndefined();
    expect(useDraftsStore.getState().carets[from]).toBeUndefined();
  });
});
