import { create } from 'zustand';
import type { MemoryNotice } from '../../shared/bridge';
import { desk } from '../desk';
import { errorWords } from '../error-words';

interface MemoryNoticeStore extends MemoryNotice {
  /** A dismissal the host refused, in words. */
  problem?: string;
  /** Starts listening to the host (once); later calls do nothing. */
  watch(): void;
  /** Closes the notice that the chat memory was set aside, for good. */
  dismiss(): Promise<void>;
}

let watching = false;

/** What the chat memory tells the main window and Settings (host side: memory-notices.ts). */
export const useMemoryNoticeStore = create<MemoryNoticeStore>((set) => ({
  watch() {
    if (watching) return;
    watching = true;
    desk().onMemoryNotice((notice) => set({ diskFull: notice.diskFull, setAside: notice.setAside }));
  },
  async dismiss() {
    set({ setAside: undefined, problem: undefined });
    const result = await desk().dismissMemoryNotice();
    if (!result.ok) set({ problem: errorWords(result.error) });
  },
}));
