import { create } from 'zustand';
import type { DraftAttachment } from '../model/attachment-limits';

export interface Draft {
  text: string;
  attachments: DraftAttachment[];
}

const emptyDraft: Draft = { text: '', attachments: [] };

/** Where the caret (or selection) is in a draft's text. */
export interface Caret {
  start: number;
  end: number;
}
/** A caret moved into another draft, with the text it belongs to. */
export type CarriedCaret = Caret & { text: string };

/** What the person is writing, per conversation, so switching never loses it. */
interface DraftsStore {
  drafts: Record<string, Draft>;
  /** The caret a message box left in its draft as it went away with the focus (the welcome box's, for `carry`). */
  carets: Record<string, Caret>;
  keepCaret(sessionId: string, caret: Caret | undefined): void;
  setText(sessionId: string, text: string): void;
  addAttachments(sessionId: string, attachments: DraftAttachment[]): void;
  removeAttachment(sessionId: string, id: string): void;
  clear(sessionId: string): void;
  /**
   * Moves what `from` holds to the end of `to`'s draft (a conversation just made takes what was typed for it).
   * Returns the caret kept for `from`, moved along into `to`'s new text, when there was one.
   */
  carry(from: string, to: string): CarriedCaret | undefined;
}

/** The draft key of an agent's conversation still being made (or not made yet: its welcome box). */
export const newConversationDraft = (agentId: string) => `new:${agentId}`;

export const useDraftsStore = create<DraftsStore>((set, get) => {
  const patch = (sessionId: string, change: (draft: Draft) => Draft) =>
    set({ drafts: { ...get().drafts, [sessionId]: change(get().drafts[sessionId] ?? emptyDraft) } });
  return {
    drafts: {},
    carets: {},
    keepCaret: (sessionId, caret) => {
      const { [sessionId]: _old, ...others } = get().carets;
      set({ carets: caret ? { ...others, [sessionId]: caret } : others });
    },
    setText: (sessionId, text) => patch(sessionId, (draft) => ({ ...draft, text })),
    addAttachments: (sessionId, attachments) =>
      patch(sessionId, (draft) => ({ ...draft, attachments: [...draft.attachments, ...attachments] })),
    removeAttachment: (sessionId, id) =>
      patch(sessionId, (draft) => ({ ...draft, attachments: draft.attachments.filter((a) => a.id !== id) })),
    clear: (sessionId) => patch(sessionId, () => emptyDraft),
    carry: (from, to) => {
      const moving = get().drafts[from];
      const { [from]: caret, ...carets } = get().carets;
      if (!moving || (moving.text === '' && moving.attachments.length === 0)) return void set({ carets });
      const { [from]: _moved, ...rest } = get().drafts;
      const target = rest[to] ?? emptyDraft;
      // On a line of its own after words already there, as a failed send puts its words back.
      const lead = target.text && moving.text ? `${target.text}\n` : target.text;
      const draft = {
        text: lead + moving.text,
        attachments: [...target.attachments, ...moving.attachments],
      };
      set({ drafts: { ...rest, [to]: draft }, carets });
      if (!caret) return undefined;
      const at = (offset: number) => lead.length + Math.min(offset, moving.text.length);
      return { start: at(caret.start), end: at(caret.end), text: draft.text };
    },
  };
});

export const selectDraft = (sessionId: string | null) => (state: { drafts: Record<string, Draft> }) =>
  (sessionId && state.drafts[sessionId]) || emptyDraft;
