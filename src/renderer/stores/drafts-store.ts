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
}

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
  };
});

export const selectDraft = (sessionId: string | null) => (state: { drafts: Record<string, Draft> }) =>
  (sessionId && state.drafts[sessionId]) || emptyDraft;
