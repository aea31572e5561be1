/**
 * The bridge's calls on a synced folder's version history: list and restore kept versions, and
 * its size (how much it holds, and the cap the person may change, shared with the CLI's `--cap`).
 */
import type {
  DeskResult,
  SyncFolderStatus,
  SyncHistoryUse,
  SyncMethods,
  SyncVersion,
} from '../../../shared/bridge';
import type { SyncManager } from '../../sync';
import { fail } from '../plumbing/call-results';

/** Runs an action on an agent's folder and answers with its status (host-sync's `onFolder`). */
export type OnFolder = (
  agentId: unknown,
  run: (manager: SyncManager, agentId: string) => Promise<unknown>,
) => Promise<DeskResult<SyncFolderStatus>>;

const MB = 1024 * 1024;
/** 1 MB to 1 TB: below, the history could not keep even one ordinary file; above, it is a typo. */
export const historyCapLimits = { minBytes: MB, maxBytes: 1024 * 1024 * MB } as const;

type HistoryCalls = Pick<
  SyncMethods,
  'listSyncVersions' | 'restoreSyncVersion' | 'getSyncHistoryUse' | 'setSyncHistoryCap'
>;

export function syncHistoryCalls(onFolder: OnFolder): HistoryCalls {
  /** An answer computed on the folder, or the folder's failure. */
  const fromFolder = async <T>(
    agentId: unknown,
    compute: (manager: SyncManager, id: string) => T,
  ): Promise<DeskResult<T>> => {
    let value: T | undefined;
    const done = await onFolder(agentId, async (m, id) => {
      value = compute(m, id);
    });
    return done.ok ? { ok: true, value: value as T } : done;
  };

  return {
    async listSyncVersions(agentId, path) {
      // No path (undefined, or null once it crossed the renderer's JSON bridge): every path.
      const only = path === null || path === undefined || path === '' ? undefined : path;
      if (only !== undefined && typeof only !== 'string')
        return fail('invalid_argument', 'A path is needed.');
      return fromFolder(agentId, (m, id): SyncVersion[] =>
        m
          .versions(id, only)
          .map(({ id: n, path: p, at, source, size }) => ({ id: n, path: p, at, source, size })),
      );
    },

    async restoreSyncVersion(agentId, versionId) {
      if (!Number.isInteger(versionId)) return fail('invalid_argument', 'A kept version is needed.');
      return onFolder(agentId, (m, id) => m.restoreVersion(id, versionId));
    },

    getSyncHistoryUse: (agentId) => fromFolder(agentId, (m, id): SyncHistoryUse => m.historyUse(id)),

    async setSyncHistoryCap(agentId, capBytes) {
      const { minBytes, maxBytes } = historyCapLimits;
      if (
        typeof capBytes !== 'number' ||
        !Number.isSafeInteger(capBytes) ||
        capBytes < minBytes ||
        capBytes % MB !== 0 ||
        capBytes > maxBytes
      ) {
        return fail(
          'invalid_argument',
          'The history size must be a whole number of MB, from 1 MB to 1,048,576 MB (1 TB).',
        );
      }
      return fromFolder(agentId, (m, id): SyncHistoryUse => m.setHistoryCap(id, capBytes));
    },
  };
}
