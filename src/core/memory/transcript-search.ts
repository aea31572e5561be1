import { shardNumbers, shardTable } from './index-shards';
import type { MemoryDatabase } from './memory-database';
import type { SearchHit, SearchQuery, SnippetSegment } from '../../shared/bridge/memory';

const DEFAULT_LIMIT = 30;
const MAX_LIMIT = 200;
/** Marks around hits in FTS5's snippet; control characters never occur in what people type. */
const OPEN = '\u0002';
const CLOSE = '\u0003';

/** The longest prefix with an index of its own (migration 003); longer words search by this much of them. */
const LONGEST_PREFIX = 8;

/**
 * What a person typed -> an FTS5 query: every word must occur, each as a prefix ("deplo" finds
 * "deployment"). Words are quoted, so FTS5 syntax in the text is only text. A word longer than the
 * longest prefix index searches by its first 8 characters, which keeps every query on an index.
 * Null when nothing searchable is left.
 */
export function toMatchQuery(text: string): string | null {
  const words = text.normalize('NFC').match(/[\p{L}\p{N}_]+/gu) ?? [];
  if (words.length === 0) return null;
  return words.map((w) => `"${[...w].slice(0, LONGEST_PREFIX).join('')}"*`).join(' ');
}

/** FTS5's snippet with its marks -> segments, hits marked; the renderer never sees markup. */
export function toSegments(snippet: string): SnippetSegment[] {
  const segments: SnippetSegment[] = [];
  let hit = false;
  for (const piece of snippet.split(new RegExp(`([${OPEN}${CLOSE}])`))) {
    if (piece === OPEN) hit = true;
    else if (piece === CLOSE) hit = false;
    else if (piece) segments.push({ text: piece, hit });
  }
  return segments;
}

/** A matching part, as the search reads it. */
interface Row {
  id: number;
  conversation_id: string;
  agent_id: string;
  title: string | null;
  position: number;
  role: SearchHit['role'];
  at: number;
  snippet: string;
}

/**
 * Full-text search over every stored message of the profile, newest indexed first: FTS5 walks its
 * index in rowid order and stops at the limit, where ranking by relevance would score every match first
 * (200,000 messages: p95 ~800 ms by rank).
 */
export function searchMessages(db: MemoryDatabase, query: SearchQuery): SearchHit[] {
  const match = toMatchQuery(query.text);
  if (match === null) return [];
  const limit = Math.min(Math.max(1, query.limit ?? DEFAULT_LIMIT), MAX_LIMIT);
  const filters: string[] = [];
  const params: unknown[] = [match];
  if (query.agentId) {
    filters.push('c.agent_id = ?');
    params.push(query.agentId);
  }
  if (query.from !== undefined) {
    filters.push('m.at >= ?');
    params.push(query.from);
  }
  if (query.to !== undefined) {
    filters.push('m.at <= ?');
    params.push(query.to);
  }
  // A long message is indexed in parts (message-indexer.ts): several of its parts may match, one hit each.
  // The index is in shards (index-shards.ts), the newest holding the newest text: each is read newest
  // first, the next only while there are too few hits.
  const wanted = limit * 2;
  const rows: Row[] = [];
  for (const n of shardNumbers(db)) {
    const table = shardTable(n);
    rows.push(
      ...(db
        .prepare(
          `SELECT m.id, m.conversation_id, c.agent_id, c.title, m.position, m.role, m.at,
                  snippet(${table}, 0, '${OPEN}', '${CLOSE}', '…', 16) AS snippet
           FROM ${table}
           JOIN message_spans p ON p.id = ${table}.rowid
           JOIN messages m ON m.id = p.message_id
           JOIN conversations c ON c.id = m.conversation_id
           WHERE ${table} MATCH ? ${filters.map((f) => `AND ${f}`).join(' ')}
           ORDER BY ${table}.rowid DESC LIMIT ?`,
        )
        .all(...params, wanted - rows.length) as Row[]),
    );
    if (rows.length >= wanted) break;
  }
  const seen = new Set<number>();
  const firstPerMessage = rows.filter((r) => !seen.has(r.id) && seen.add(r.id));
  return firstPerMessage.slice(0, limit).map((r) => ({
    conversationId: r.conversation_id,
    agentId: r.agent_id,
    title: r.title,
    position: r.position,
    role: r.role,
    at: r.at,
    snippet: toSegments(r.snippet),
  }));
}
