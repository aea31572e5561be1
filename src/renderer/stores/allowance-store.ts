import { create } from 'zustand';
import type { DeskError } from '../../shared/bridge';

/** The reasons a 402 gives (spec: Errors). */
export type AllowanceReason = 'quota_exhausted' | 'trial_expired' | 'own_key_required';

export interface AllowanceNotice {
  reason: AllowanceReason | 'other';
  /** The server's `message`, for display as it is. */
  message: string;
}

interface AllowanceStore {
  notice: AllowanceNotice | null;
  /** Dismissed notices are not shown again until the reason or message changes. */
  dismissedKey: string | null;
  report(error: DeskError): void;
  dismiss(): void;
}

const reasons: readonly string[] = ['quota_exhausted', 'trial_expired', 'own_key_required'];
const keyOf = (notice: AllowanceNotice) => `${notice.reason}\n${notice.message}`;

/** A 402 from anywhere lands here once; the banner shows it, replies do not repeat it. */
export const useAllowanceStore = create<AllowanceStore>((set, get) => ({
  notice: null,
  dismissedKey: null,
  report(error) {
    if (error.status !== 402) return;
    const notice: AllowanceNotice = {
      reason: reasons.includes(error.code) ? (error.code as AllowanceReason) : 'other',
      message: error.message,
    };
    const current = get().notice;
    if (current && keyOf(current) === keyOf(notice)) return;
    if (get().dismissedKey === keyOf(notice)) return;
    set({ notice });
  },
  dismiss() {
    const notice = get().notice;
    set({ notice: null, dismissedKey: notice ? keyOf(notice) : null });
  },
}));

export function isAllowanceError(error: DeskError | undefined): boolean {
  return error?.status === 402;
}
