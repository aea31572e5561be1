import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { getMimeType } from 'hono/utils/mime';
import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';
import { writeAtomically } from '../workspace/write-atomically';

/** An account file's record (the API's Archivo, whose `nombre` is `name` here, without its URL, signed per answer). */
export interface LibraryFile {
  id: string;
  personId: string;
  name: string;
  mimeType: string;
  size: number;
  createdAt: number;
}

interface Row {
  id: string;
  person_id: string;
  name: string;
  mime_type: string;
  size: number;
  created_at: number;
}

const toFile = (row: Row): LibraryFile => ({
  id: row.id,
  personId: row.person_id,
  name: row.name,
  mimeType: row.mime_type,
  size: row.size,
  createdAt: row.created_at,
});

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
const EXTRA_TYPES: Record<string, string> = {
  md: 'text/markdown; charset=utf-8',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  webm: 'audio/webm',
  m4a: 'audio/mp4',
  yaml: 'application/yaml',
  yml: 'application/yaml',
};

/**
 * The type a file is served with: the upload's own `Content-Type` when it names one, else a guess from
 * the name's extension, else `application/octet-stream`.
 */
export function mimeTypeFor(name: string, contentType: string | undefined): string {
  const given = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (given && given !== 'application/octet-stream' && MIME.test(given)) {
    const charset = /;\s*charset=([a-z0-9_-]+)/i.exec(contentType ?? '')?.[1];
    return charset ? `${given}; charset=${charset.toLowerCase()}` : given;
  }
  const ext = path.extname(name).slice(1).toLowerCase();
  return EXTRA_TYPES[ext] ?? getMimeType(name) ?? 'application/octet-stream';
}

/** The person's file library: rows in the database, bytes under `<dataDir>/library/<personId>/<id>`. */
export function createLibraryStore(db: ServiceDatabase, clock: Clock, dataDir: string) {
  const insert = prepare(
    db,
    'INSERT INTO account_files (id, person_id, name, mime_type, size, sha256, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const listStmt = prepare(
    db,
    'SELECT * FROM account_files WHERE person_id = ? ORDER BY created_at DESC, rowid DESC',
  );
  const byId = prepare(db, 'SELECT * FROM account_files WHERE id = ?');
  const remove = prepare(db, 'DELETE FROM account_files WHERE id = ? AND person_id = ?');
  const root = path.join(dataDir, 'library');
  const bytesPath = (personId: string, id: string) => path.join(root, personId, id);

  return {
    async add(personId: string, name: string, mimeType: string, bytes: Uint8Array): Promise<LibraryFile> {
      const file: LibraryFile = {
        id: randomUUID(),
        personId,
        name,
        mimeType,
        size: bytes.byteLength,
        createdAt: clock.now(),
      };
      await mkdir(path.join(root, personId), { recursive: true });
      await writeAtomically(bytesPath(personId, file.id), bytes);
      const sha = createHash('sha256').update(bytes).digest('hex');
      await insert.run(file.id, personId, name, mimeType, file.size, sha, file.createdAt);
      return file;
    },
    async list(personId: string): Promise<LibraryFile[]> {
      return ((await listStmt.all(personId)) as Row[]).map(toFile);
    },
    /** Any person's file by id (the signed route has no bearer; the signature names the file). */
    async find(id: string): Promise<LibraryFile | null> {
      const row = (await byId.get(id)) as Row | undefined;
      return row ? toFile(row) : null;
    },
    async findOwned(personId: string, id: string): Promise<LibraryFile | null> {
      const file = await this.find(id);
      return file && file.personId === personId ? file : null;
    },
    async read(file: LibraryFile): Promise<Buffer> {
      return readFile(bytesPath(file.personId, file.id));
    },
    async delete(personId: string, id: string): Promise<boolean> {
      const gone = (await remove.run(id, personId)).changes > 0;
      if (gone) await rm(bytesPath(personId, id), { force: true });
      return gone;
    },
    /** Account deletion: every file of the person, rows and bytes. */
    async deleteAll(personId: string): Promise<void> {
      await prepare(db, 'DELETE FROM account_files WHERE person_id = ?').run(personId);
      await rm(path.join(root, personId), { recursive: true, force: true });
    },
  };
}

export type LibraryStore = ReturnType<typeof createLibraryStore>;
