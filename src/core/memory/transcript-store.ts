import { existsSync } from 'node:fs';
import { mergeHistory, TAIL_SLACK_MS, type HistoryMessage, type StoredTurn } from './history-merge';
import {
  openMemoryDatabase,
  removeMemoryDatabase,
  restrictModes,
  type MemoryDatabase,
  type SetAsideStore,
} from './memory-database';
import type { StoredMessage } from '../../shared/api';
import type { MemoryHistory, SearchHit, SearchQuery } from '../../shared/bridge/memory';
import { setThumbnails } from './attachment-rows';
import { markFullHistory } from './history-writer';
import { mergeIndexInSteps } from './index-merge';
import { resetShards, setShardChars } from './index-shards';
import { MemoryWriter } from './memory-writer';
import { WriteChains } from './write-chains';
import { StoredLists, UPSERT_CONVERSATION } from './stored-lists';
import { searchMessages } from './transcript-search';
import { keepReplies } from './reply-in-message';
import {
  forgetTurn,
  forgetTurnsFrom,
  latestModels,
  loadTurn,
  storedTurns,
  type RewindCut,
} from './stored-turns';
import type { TurnRecord } from './turn-record';
import { writeTurns, type TurnWrite } from './turn-writer';

export type { TurnWrite } from './turn-writer';

export interface ConversationMeta {
  title?: string | null;
  /** Epoch ms of the server's `actualizada`. */
  updatedAt?: number | null;
}

/**
 * One profile's transcripts on disk (SQLite, WAL, 0600). Holds the app's copy of each conversation's
 * text and every turn's detail; never tokens, never attachment bytes beyond a thumbnail.
 */
export class TranscriptStore {
  /** What the app last heard of agents and conversations, for reading offline. */
  readonly lists: StoredLists;

  /** The thread that writes downloaded histories, indexes long messages and merges the index. */
  private readonly writer: MemoryWriter;

  /** What the writer thread was given per conversation and has yet to write (write-chains.ts). */
  private readonly underWay = new WriteChains();

  private constructor(
    private readonly db: MemoryDatabase,
    readonly file: string,
    shardChars: number | undefined,
  ) {
    this.lists = new StoredLists(db);
    this.writer = new MemoryWriter({ file, ...(shardChars !== undefined ? { shardChars } : {}) });
  }

  /** Opens the store; long messages a previous run had not finished indexing are indexed in the background. */
  static open(
    file: string,
    options: { shardChars?: number; onSetAside?: (aside: SetAsideStore) => void } = {},
  ): TranscriptStore {
    const db = openMemoryDatabase(file, undefined, options.onSetAside);
    // The search index's shard size (index-shards.ts); tests use small ones.
    if (options.shardChars !== undefined) setShardChars(db, options.shardChars);
    // Before the first write of this run: the index is merged in steps (index-merge.ts), never inside one.
    mergeIndexInSteps(db);
    const store = new TranscriptStore(db, file, options.shardChars);
    if (db.prepare('SELECT 1 FROM index_queue LIMIT 1').get()) store.indexSoon();
    return store;
  }

  /**
   * Resolves once every stored message is searchable and the index merged: long ones are indexed in parts,
   * and the index merged in steps, by the writer thread.
   */
  indexed(): Promise<void> {
    return this.writer.index();
  }

  /** indexed(), not awaited: a failure leaves the work on disk (index_queue) for the next request. */
  private indexSoon(): void {
    this.writer.index().catch(() => undefined);
  }

  /** Upserts what the conversation list says of a conversation (title, last activity). */
  saveConversation(agentId: string, conversationId: string, meta: ConversationMeta = {}): void {
    this.db
      .prepare(UPSERT_CONVERSATION)
      .run(conversationId, agentId, meta.title ?? null, meta.updatedAt ?? null);
  }

  /**
   * Stores the server's history from position `skipped` on (the truth for text): every stored message
   * from there is replaced, including turns seen live. `version` marks which server state this is.
   */
  saveHistory(
    agentId: string,
    conversationId: string,
    messages: readonly HistoryMessage[],
    skipped: number,
    version?: string,
  ): void {
    const insert = this.db.prepare(
      'INSERT INTO messages (conversation_id, position, role, content, at, turn_id) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      this.saveConversation(agentId, conversationId);
      const kept = keepReplies(this.db, conversationId, skipped, messages);
      this.db
        .prepare('DELETE FROM messages WHERE conversation_id = ? AND position >= ?')
        .run(conversationId, skipped);
      messages.forEach((m, i) => {
        const turnId = m.turnId ?? kept.get(skipped + i) ?? null;
        insert.run(conversationId, skipped + i, m.role, m.content, m.at, turnId);
      });
      if (skipped === 0) markFullHistory(this.db, conversationId, version ?? null);
    })();
    this.indexSoon();
  }

  /**
   * saveHistory for a long history (the history indexer's downloads): handed to the writer thread in parts,
   * which writes it in slices, unchanged messages left as stored (history-writer.ts); the host's thread runs
   * none of its statements, and keeps none of the messages once they are handed over. The history counts as stored for `version` only once all of it
   * is written; an abort of `signal` stops it at the next slice and leaves that unset.
   */
  saveHistoryInSlices(
    agentId: string,
    conversationId: string,
    messages: readonly HistoryMessage[],
    skipped: number,
    version?: string,
    signal?: AbortSignal,
    fetchedAt?: number,
  ): Promise<void> {
    // Handed over (in parts, memory-writer.ts): the thread writes the conversation's row, its turns' replies and the slices (history-writer.ts).
    // Not awaited here: an async frame would hold `messages` until the thread had written them.
    return this.writer.writeHistory(
      { agentId, conversationId, messages, skipped, version, fetchedAt },
      signal,
    );
  }

  /**
   * saveHistory for a conversation a person opens: handed to the writer thread as a download is, so the
   * host's thread runs none of its statements. Written after what was handed over earlier for the same
   * conversation; until it is, that conversation's turns wait for it (writesUnderWay), so a live turn's
   * message never lands among positions the history is about to rewrite, nor past its end.
   */
  saveOpenedHistory(
    agentId: string,
    conversationId: string,
    messages: readonly HistoryMessage[],
    skipped: number,
    fetchedAt?: number,
  ): Promise<void> {
    return this.underWay.after(conversationId, () =>
      this.writer.writeHistory({ agentId, conversationId, messages, skipped, fetchedAt }),
    );
  }

  /**
   * writeTurns for the turn of a long reply: written by the writer thread, after the writes under way for its
   * conversation, so copying its text into SQLite (20-40 ms for 1 MB) never holds the host's thread.
   */
  writeTurnOnThread(write: TurnWrite): Promise<void> {
    return this.underWay.after(write.conversationId, () => this.writer.writeTurns([write]));
  }

  /**
   * Resolves (never rejects) once the writes handed to the thread for a conversation (an opened history, a
   * long reply's turn) are done; undefined when none is under way.
   */
  writesUnderWay(conversationId: string): Promise<void> | undefined {
    return this.underWay.underWay(conversationId);
  }

  /** Resolves once every write handed to the thread for a conversation so far is done: a search finds it then. */
  threadWritesDone(): Promise<void> {
    return this.underWay.allDone();
  }

  /** The whole history was stored for this server state (`version`), so indexing can skip it. */
  hasFullHistory(conversationId: string, version: string): boolean {
    const row = this.db
      .prepare('SELECT history_version FROM conversations WHERE id = ? AND history_synced_at IS NOT NULL')
      .get(conversationId) as { history_version: string | null } | undefined;
    return row?.history_version === version;
  }

  /** The stored copy of a conversation's text (for reading offline): its last `limit` messages, or all. */
  readHistory(conversationId: string, limit?: number): { messages: HistoryMessage[]; skipped: number } {
    const rows = (
      this.db
        .prepare(
          `SELECT position, role, content, at, turn_id FROM messages WHERE conversation_id = ?
           ORDER BY position DESC LIMIT ?`,
        )
        .all(conversationId, limit ?? -1) as (StoredMessage & { position: number; turn_id: string | null })[]
    ).reverse();
    const messages = rows.map((r) => ({
      role: r.role,
      content: r.content,
      at: r.at,
      ...(r.turn_id ? { turnId: r.turn_id } : {}),
    }));
    return { messages, skipped: rows[0]?.position ?? 0 };
  }

  /**
   * The server's (or, offline, the stored last `limit`) text with the stored detail of its turns beside
   * it. Only turns that can belong to that text are read, so a tail of a long conversation stays cheap.
   */
  merged(
    conversationId: string,
    server?: { messages: readonly HistoryMessage[]; skipped: number },
    limit?: number,
  ): MemoryHistory {
    const text = server ?? this.readHistory(conversationId, limit);
    const since = text.skipped > 0 && text.messages[0] ? text.messages[0].at - TAIL_SLACK_MS : undefined;
    return mergeHistory(text.messages, text.skipped, this.storedTurns(conversationId, since));
  }

  /** The stored turns of a conversation, in order; only those started from `since` (epoch ms) when given. */
  storedTurns(conversationId: string, since?: number): StoredTurn[] {
    return storedTurns(this.db, conversationId, since);
  }

  /** A turn's fold as last written, to go on folding events that arrive after a restart. */
  loadTurn(conversationId: string, turnId: string): TurnRecord | null {
    return loadTurn(this.db, conversationId, turnId);
  }

  /** The latest `models` event stored for the conversation, so the picker is there before the next turn. */
  latestModels(conversationId: string): Record<string, unknown> | null {
    return latestModels(this.db, conversationId);
  }

  /** Writes a batch of turns in one transaction; a turn's messages join the text once known. */
  writeTurns(batch: readonly TurnWrite[]): void {
    if (batch.length === 0) return;
    writeTurns(this.db, batch);
    restrictModes(this.file);
    this.indexSoon();
  }

  /** Small pictures of a sent turn's images, in the order sent (null keeps none). */
  setThumbnails(conversationId: string, turnId: string, thumbnails: readonly (string | null)[]): void {
    setThumbnails(this.db, conversationId, turnId, thumbnails);
  }

  search(query: SearchQuery): SearchHit[] {
    return searchMessages(this.db, query);
  }

  /** A rewind cut the conversation back to its first `position` messages (stored-turns.ts). */
  forgetTurnsFrom(conversationId: string, position: number, at: number): RewindCut {
    return forgetTurnsFrom(this.db, conversationId, position, at);
  }

  /** One turn a rewind forgot (stored-turns.ts). */
  forgetTurn(conversationId: string, turnId: string): void {
    forgetTurn(this.db, conversationId, turnId);
  }

  /** Forgets every conversation, message and turn of this profile. */
  clear(): void {
    this.db.transaction(() => {
      for (const table of [
        'messages',
        'message_spans',
        'turns',
        'attachments',
        'conversations',
        'snapshots',
      ]) {
        this.db.exec(`DELETE FROM ${table}`);
      }
    })();
    resetShards(this.db);
    this.db.exec('VACUUM');
  }

  /** Closes the store; the writer thread finishes its current step, then closes its own connection. */
  close(): Promise<void> {
    const writerClosed = this.writer.close();
    this.db.close();
    return writerClosed;
  }

  /**
   * Closes the store and deletes its files; once the writer thread has closed its connection, whatever
   * companion file that left is deleted too (unless a new store was opened there meanwhile).
   */
  destroy(): void {
    const writerClosed = this.close();
    removeMemoryDatabase(this.file);
    void writerClosed.then(() => {
      if (!existsSync(this.file)) removeMemoryDatabase(this.file);
    });
  }
}
