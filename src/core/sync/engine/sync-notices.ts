/** The status's notices: plain sentences said once each (a reporter prints every new id once). */
import type { SyncNotice, SyncStatus } from '../../../shared/bridge';
import { syncStateSetAsideWords } from '../../../shared/words/set-aside-words';
import type { SyncStateStore } from '../state/sync-state-store';

/** The newest few stay in the status; older ones were said already. */
const kept = 5;
let counter = 0;

/** The status's notices with one more (a fresh id unless given one). */
export function withNotice(status: Pick<SyncStatus, 'notices'>, text: string, id?: string): SyncNotice[] {
  counter += 1;
  const notice = { id: id ?? `${Date.now()}-${counter}`, at: Date.now(), text };
  return [...(status.notices ?? []).filter((n) => n.id !== notice.id), notice].slice(-kept);
}

/** The notice that the folder's state was found damaged and set aside, when it was (said once: the note is taken). */
export function setAsideNotices(store: SyncStateStore): Pick<SyncStatus, 'notices'> {
  const aside = store.takeSetAside();
  return aside ? { notices: withNotice({}, syncStateSetAsideWords(aside)) } : {};
}
