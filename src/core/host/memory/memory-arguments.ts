import type { DeskResult } from '../../../shared/bridge';
import type { SearchQuery } from '../../../shared/bridge/memory';
import { fail } from '../plumbing/call-results';

/** Bridge arguments of the memory area come from a page: each is checked before use. */

const MAX_QUERY = 500;
/** A thumbnail is small by definition; anything bigger is refused rather than stored. */
export const MAX_THUMBNAIL_CHARS = 48_000;
const THUMBNAIL = /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+={0,2}$/;

export function checkSearchQuery(query: unknown): DeskResult<SearchQuery> {
  if (typeof query !== 'object' || query === null)
    return fail('invalid_argument', 'Type something to search for.');
  const q = query as Record<string, unknown>;
  if (typeof q['text'] !== 'string' || q['text'].length > MAX_QUERY) {
    return fail('invalid_argument', `A search is up to ${MAX_QUERY} characters of text.`);
  }
  const bound = (v: unknown): boolean => v === undefined || (typeof v === 'number' && Number.isFinite(v));
  if (!bound(q['from']) || !bound(q['to'])) return fail('invalid_argument', 'Search dates must be times.');
  if (q['agentId'] !== undefined && typeof q['agentId'] !== 'string') {
    return fail('invalid_argument', 'The agent filter must be an agent id.');
  }
  if (q['limit'] !== undefined && !(Number.isInteger(q['limit']) && (q['limit'] as number) > 0)) {
    return fail('invalid_argument', 'The result limit must be a whole number.');
  }
  return {
    ok: true,
    value: {
      text: q['text'],
      ...(q['agentId'] ? { agentId: q['agentId'] as string } : {}),
      ...(q['from'] !== undefined ? { from: q['from'] as number } : {}),
      ...(q['to'] !== undefined ? { to: q['to'] as number } : {}),
      ...(q['limit'] !== undefined ? { limit: q['limit'] as number } : {}),
    },
  };
}

export function checkThumbnails(value: unknown): DeskResult<(string | null)[]> {
  if (!Array.isArray(value) || value.length > 8) {
    return fail('invalid_argument', 'Thumbnails come as a list of up to 8 pictures.');
  }
  for (const t of value) {
    if (t === null) continue;
    if (typeof t !== 'string' || t.length > MAX_THUMBNAIL_CHARS || !THUMBNAIL.test(t)) {
      return fail('invalid_argument', 'A thumbnail must be a small PNG, JPEG, WebP or GIF picture.');
    }
  }
  return { ok: true, value: value as (string | null)[] };
}
