import pLimit from 'p-limit';
import type { ConversationSummary } from '../../shared/api';
import type { IndexProgress } from '../../shared/bridge/memory';
import type { HistoryMessage } from './history-merge';
import { historyVersion } from './stored-lists';
import type { TranscriptStore } from './transcript-store';

/** The few API answers the indexer needs, as results (never thrown). */
export type SourceResult<T> =
  { ok: true; value: T } | { ok: false; error: { code: string; status?: number; retryAfterMs?: number } };

export interface HistorySource {
  listAgents(): Promise<SourceResult<{ id: string }[]>>;
  listConversations(agentId: string): Promise<SourceResult<ConversationSummary[]>>;
  /** The whole history of one conversation. */
  getHistory(agentId: string, conversationId: string): Promise<SourceResult<HistoryMessage[]>>;
}

export interface IndexerOptions {
  /** Downloads at once; polite by default. */
  concurrency?: number;
  /** Wait after a 429 that did not say how long. */
  busyWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  onProgress?: (progress: IndexProgress) => void;
}

/**
 * Downloads, in the background, every conversation whose history the store lacks or holds for an
 * older server state, and stores it (so search finds it). Bounded concurrency; a 429 pauses every
 * download for its Retry-After before that conversation is tried again. Stops when `signal` aborts.
 */
export async function indexHistory(
  source: HistorySource,
  store: TranscriptStore,
  signal: AbortSignal,
  options: IndexerOptions = {},
): Promise<IndexProgress> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.()));
  const progress: IndexProgress = { done: 0, total: 0, failed: 0 };
  const agents = await source.listAgents();
  if (!agents.ok || signal.aborted) return progress;
  const pending: { agentId: string; conversation: ConversationSummary }[] = [];
  for (const agent of agents.value) {
    const list = await source.listConversations(agent.id);
    if (signal.aborted) return progress;
    if (!list.ok) continue;
    for (const conversation of store.lists.saveConversations(agent.id, list.value)) {
      pending.push({ agentId: agent.id, conversation });
    }
  }
  progress.total = pending.length;
  options.onProgress?.({ ...progress });
  let pausedUntil = 0;
  const limit = pLimit(Math.max(1, options.concurrency ?? 2));
  const fetchOne = async (agentId: string, conversation: ConversationSummary): Promise<void> => {
    for (let attempt = 0; attempt < 5 && !signal.aborted; attempt++) {
      const wait = pausedUntil - Date.now();
      if (wait > 0) await sleep(wait);
      if (signal.aborted) return;
      // A turn the app records while this download is on its way is newer than it (HistoryWrite.fetchedAt).
      const fetchedAt = Date.now();
      const history = await source.getHistory(agentId, conversation.id);
      if (history.ok) {
        await store.saveHistoryInSlices(
          agentId,
          conversation.id,
          history.value,
          0,
          historyVersion(conversation),
          signal,
          fetchedAt,
        );
        if (signal.aborted) return;
        progress.done += 1;
        return;
      }
      if (history.error.status !== 429) break;
      pausedUntil = Math.max(
        pausedUntil,
        Date.now() + (history.error.retryAfterMs ?? options.busyWaitMs ?? 30_000),
      );
    }
    if (!signal.aborted) progress.failed += 1;
  };
  await Promise.all(
    pending.map(({ agentId, conversation }) =>
      limit(async () => {
        if (signal.aborted) return;
        await fetchOne(agentId, conversation);
        options.onProgress?.({ ...progress });
      }),
    ),
  );
  return progress;
}
