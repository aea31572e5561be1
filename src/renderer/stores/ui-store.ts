import { create } from 'zustand';

export interface ScrollMemory {
  /** Distance from the bottom of the list, so new messages do not move what the person reads. */
  fromBottom: number;
}

interface UiStore {
  scroll: Record<string, ScrollMemory>;
  searchOpen: boolean;
  query: string;
  /** Bumped to ask the composer to take focus. */
  composerFocus: number;
  /** Bumped to ask the search box to take focus. */
  searchFocus: number;
  /** A sidebar row asked the open conversation's header for its Share dialog. */
  shareAsked: string | null;
  rememberScroll(sessionId: string, memory: ScrollMemory): void;
  setQuery(query: string): void;
  focusComposer(): void;
  focusSearch(): void;
  askShare(sessionId: string | null): void;
}

export const useUiStore = create<UiStore>((set, get) => ({
  scroll: {},
  searchOpen: false,
  query: '',
  composerFocus: 0,
  searchFocus: 0,
  shareAsked: null,
  rememberScroll(sessionId, memory) {
    set({ scroll: { ...get().scroll, [sessionId]: memory } });
  },
  setQuery(query) {
    set({ query });
  },
  focusComposer() {
    set({ composerFocus: get().composerFocus + 1 });
  },
  focusSearch() {
    set({ searchFocus: get().searchFocus + 1, searchOpen: true });
  },
  askShare(sessionId) {
    set({ shareAsked: sessionId });
  },
}));
