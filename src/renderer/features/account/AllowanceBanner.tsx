import { useAllowanceStore, type AllowanceNotice } from '../../stores/allowance-store';

const reasonWords: Record<AllowanceNotice['reason'], string> = {
  quota_exhausted: 'Allowance used up',
  trial_expired: 'Trial ended',
  own_key_required: 'Your own key is needed',
  other: 'Not covered by your plan',
};

/** A 402 from anywhere, shown once with its reason and the server's own message. */
export function AllowanceBanner() {
  const notice = useAllowanceStore((s) => s.notice);
  if (!notice) return null;
  return (
    <div className="allowance-banner" role="alert" aria-label="Allowance">
      <p>
        <strong>{reasonWords[notice.reason]}.</strong> {notice.message}
      </p>
      <button type="button" className="link" onClick={() => useAllowanceStore.getState().dismiss()}>
        Dismiss
      </button>
    </div>
  );
}
