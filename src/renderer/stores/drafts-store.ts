import { create } from 'zustand';
import type { DraftAttachment } from '../model/attachment-limits';

export interface Draft {
  text: string;
  attachments: DraftAttachment[];
}

const emptyDraft: Draft = { text: '', attachments: [] };

/** What the person is writing, per conversation, so switching never loses it. */
interface DraftsStore {
  drafts: Record<string, Draft>;
  setText(sessionId: string, text: string): void;
  addAttachments(sessionId: string, attachments: DraftAttachment[]): void;
  removeAttachment(sessionId: string, id: string): void;
  clear(sessionId: string): void;
  /** Moves what `from` holds to the end of `to`'s draft (a conversation just made takes what was typed for it). */
  carry(from: string, to: string): void;
}

/** The draft key of an agent's conversation still being made (or not made yet: its welcome box). */
export const newConversationDraft = (agentId: string) => `new:${agentId}`;

export const useDraftsStore = create<DraftsStore>((set, get) => {
  const patch = (sessionId: string, change: (draft: Draft) => Draft) =>
    set({ drafts: { ...get().drafts, [sessionId]: change(get().drafts[sessionId] ?? emptyDraft) } });
  return {
    drafts: {},
    setText: (sessionId, text) => patch(sessionId, (draft) => ({ ...draft, text })),
    addAttachments: (sessionId, attachments) =>
      patch(sessionId, (draft) => ({ ...draft, attachments: [...draft.attachments, ...attachments] })),
    removeAttachment: (sessionId, id) =>
      patch(sessionId, (draft) => ({ ...draft, attachments: draft.attachments.filter((a) => a.id !== id) })),
    clear: (sessionId) => patch(sessionId, () => emptyDraft),
    carry: (from, to) => {
      const moving = get().drafts[from];
      if (!moving || (moving.text === '' && moving.attachments.length === 0)) return;
      const { [from]: _moved, ...rest } = get().drafts;
      const target = rest[to] ?? emptyDraft;
      const draft = {
        // On a line of its own after words already there, as a failed send puts its words back.
        text: target.text && moving.text ? `${target.text}\n${moving.text}` : target.text + moving.text,
        attachments: [...target.attachments, ...moving.attachments],
      };
      set({ drafts: { ...rest, [to]: draft } });
    },
  };
});

export const selectDraft = (sessionId: string | null) => (state: { drafts: Record<string, Draft> }) =>
  (sessionId && state.drafts[sessionId]) || emptyDraft;
