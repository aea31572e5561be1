import type { AttachmentMeta } from '../../shared/bridge/memory';
import type { MemoryDatabase } from './memory-database';

/** Attachments are kept as name, type and size; images may add a small thumbnail, never the bytes. */

export function writeAttachments(
  db: MemoryDatabase,
  conversationId: string,
  turnId: string,
  attachments: readonly AttachmentMeta[],
): void {
  // A thumbnail saved before this write stays: only the description is replaced.
  const upsert = db.prepare(
    `INSERT INTO attachments (conversation_id, turn_id, idx, name, mime_type, size, thumbnail)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (conversation_id, turn_id, idx) DO UPDATE SET name = excluded.name,
       mime_type = excluded.mime_type, size = excluded.size,
       thumbnail = COALESCE(excluded.thumbnail, attachments.thumbnail)`,
  );
  attachments.forEach((a, i) =>
    upsert.run(conversationId, turnId, i, a.name, a.mimeType, a.size, a.thumbnail ?? null),
  );
}

export function setThumbnails(
  db: MemoryDatabase,
  conversationId: string,
  turnId: string,
  thumbnails: readonly (string | null)[],
): void {
  const upsert = db.prepare(
    `INSERT INTO attachments (conversation_id, turn_id, idx, name, mime_type, size, thumbnail)
     VALUES (?, ?, ?, '', '', 0, ?)
     ON CONFLICT (conversation_id, turn_id, idx) DO UPDATE SET thumbnail = excluded.thumbnail`,
  );
  db.transaction(() => {
    thumbnails.forEach((t, i) => {
      if (t !== null) upsert.run(conversationId, turnId, i, t);
    });
  })();
}

export function attachmentsOf(db: MemoryDatabase, conversationId: string): Map<string, AttachmentMeta[]> {
  const rows = db
    .prepare(
      'SELECT turn_id, name, mime_type, size, thumbnail FROM attachments WHERE conversation_id = ? ORDER BY idx',
    )
    .all(conversationId) as {
    turn_id: string;
    name: string;
    mime_type: string;
    size: number;
    thumbnail: string | null;
  }[];
  const byTurn = new Map<string, AttachmentMeta[]>();
  for (const r of rows) {
    const list = byTurn.get(r.turn_id) ?? [];
    list.push({
      name: r.name,
      mimeType: r.mime_type,
      size: r.size,
      ...(r.thumbnail ? { thumbnail: r.thumbnail } : {}),
    });
    byTurn.set(r.turn_id, list);
  }
  return byTurn;
}
