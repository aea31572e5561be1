/** How much a folder's version history holds (each content once, as it is stored) and its size cap. */
import type { VersionHistory } from './version-history';

export interface HistoryUse {
  usedBytes: number;
  capBytes: number;
}

export function historyUse(history: VersionHistory): HistoryUse {
  const sizes = new Map<string, number>();
  for (const v of history.list()) sizes.set(v.sha256, Math.max(v.size, sizes.get(v.sha256) ?? 0));
  let usedBytes = 0;
  for (const size of sizes.values()) usedBytes += size;
  return { usedBytes, capBytes: history.capBytes };
}
