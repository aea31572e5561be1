import { useId } from 'react';
import type { SyncStatus } from '../../../shared/bridge';

/** The engine's id for "writes this server cannot check" (core/sync/plan/unchecked-overwrites.ts). */
const uncheckedNoticeId = 'unchecked-overwrite';

/** What the person can do in the app about writes the sync cannot check. */
const uncheckedAdvice =
  'To keep the agent’s edits safe here, keep the folder upload-only: edit only your own files in work/ and let the agent change its own.';

/** What the sync did or could not check that the person should know, newest first. */
export function SyncNotices(props: { status: SyncStatus }) {
  const headingId = useId();
  const notices = [...(props.status.notices ?? [])].reverse();
  if (notices.length === 0) return null;
  return (
    <section className="sync-card" aria-labelledby={headingId}>
      <h3 id={headingId}>Notes</h3>
      <ul className="sync-list sync-notices" aria-label="Sync notes">
        {notices.map((notice) => (
          <li key={notice.id} role="note">
            <p>{notice.text}</p>
            {notice.id === uncheckedNoticeId ? <p className="muted small-text">{uncheckedAdvice}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
