/**
 * What the chat memory tells the main window (issue 38): while its disk is full, the sentence naming that
 * disk (gone once a write succeeds), and once, until the person closes it, that this run found the store
 * damaged and set it aside. Settings → Chat memory says both too (getMemoryInfo).
 */
import type { DeskResult, Unsubscribe } from '../../../shared/bridge';
import type { MemoryNotice } from '../../../shared/bridge/memory';
import type { Logger } from '../../log/logger';
import { createEventHub } from '../plumbing/event-hub';
import type { ProfileMemory } from './profile-memory';

export interface MemoryNotices {
  /** The open store's notice changed (or another store opened): listeners hear it. */
  changed(): void;
  onMemoryNotice(listener: (notice: MemoryNotice) => void): Unsubscribe;
  dismissMemoryNotice(): Promise<DeskResult<void>>;
}

export function memoryNotices(logger: Logger, memory: () => ProfileMemory | null): MemoryNotices {
  const hub = createEventHub<MemoryNotice>(logger, 'memory notice');
  const current = (): MemoryNotice => {
    const mem = memory();
    return {
      ...(mem?.diskFull ? { diskFull: mem.diskFull } : {}),
      ...(mem?.setAside && !mem.setAsideDismissed ? { setAside: mem.setAside } : {}),
    };
  };
  const changed = () => hub.emit(current());
  return {
    changed,
    onMemoryNotice(listener) {
      listener(current());
      return hub.on(listener);
    },
    async dismissMemoryNotice() {
      const mem = memory();
      if (mem) mem.setAsideDismissed = true;
      changed();
      return { ok: true, value: undefined };
    },
  };
}
