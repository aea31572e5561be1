/**
 * How a path changed on one side since its base: the first question of every plan.
 */
import type { BaseEntry, LocalEntry, RemoteEntry } from './sync-plan-types';

export type Change = 'absent' | 'unchanged' | 'new' | 'modified' | 'deleted';

/** The remote side is compared with what the remote held after the last sync (its own form). */
export function classifyRemote(base: BaseEntry | undefined, entry: RemoteEntry | undefined): Change {
  if (!base?.remote) return classify(base, entry);
  if (!entry) return 'deleted';
  if (entry.size !== base.remote.size) return 'modified';
  if (entry.sha256 !== undefined && base.remote.sha256 !== undefined)
    return entry.sha256 === base.remote.sha256 ? 'unchanged' : 'modified';
  return 'unchanged';
}

export function classify(base: BaseEntry | undefined, entry: LocalEntry | RemoteEntry | undefined): Change {
  if (!base) return entry ? 'new' : 'absent';
  if (!entry) return 'deleted';
  if (entry.size !== base.size) return 'modified';
  if (entry.sha256 !== undefined) return entry.sha256 === base.sha256 ? 'unchanged' : 'modified';
  if ('mtimeMs' in entry) return entry.mtimeMs === base.mtimeMs ? 'unchanged' : 'modified';
  return 'unchanged'; // a remote listing without hashes: same size counts as unchanged
}
