/** The status's notices: plain sentences said once each (a reporter prints every new id once). */
import type { SyncNotice, SyncStatus } from '../../../shared/bridge';

/** The newest few stay in the status; older ones were said already. */
const kept = 5;
let counter = 0;

/** The status's notices with one more (a fresh id unless given one). */
export function withNotice(status: SyncStatus, text: string, id?: string): SyncNotice[] {
  counter += 1;
  const notice = { id: id ?? `${Date.now()}-${counter}`, at: Date.now(), text };
  return [...(status.notices ?? []).filter((n) => n.id !== notice.id), notice].slice(-kept);
}
