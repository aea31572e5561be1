import { useEffect } from 'react';
import { useMemoryNoticeStore } from '../../stores/memory-notice-store';

/**
 * The chat memory in the main window: while its disk is full, which disk (gone by itself once a write
 * succeeds); and once, until closed, that it was found damaged and set aside (Settings says it all that run).
 */
export function MemoryBanner() {
  const diskFull = useMemoryNoticeStore((s) => s.diskFull);
  const setAside = useMemoryNoticeStore((s) => s.setAside);
  const problem = useMemoryNoticeStore((s) => s.problem);
  useEffect(() => useMemoryNoticeStore.getState().watch(), []);
  return (
    <>
      {diskFull ? (
        <p className="banner memory-banner" role="status" aria-label="Chat memory">
          <strong>Disk full</strong> — {diskFull}
        </p>
      ) : null}
      {setAside ? (
        <div className="banner memory-banner" role="status" aria-label="Chat memory set aside">
          <span>{setAside}</span>{' '}
          <button type="button" onClick={() => void useMemoryNoticeStore.getState().dismiss()}>
            Dismiss
          </button>
        </div>
      ) : null}
      {problem ? (
        <p className="banner error-text" role="alert">
          {problem}
        </p>
      ) : null}
    </>
  );
}
