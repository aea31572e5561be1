import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir, rm, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { MACHINE_WORKSPACE } from '../workspace/agent-layout';
import { workspaceHashes } from '../workspace/content-hash-cache';
import {
  WorkspacePathError,
  isReservedPath,
  lstatOrNull,
  parseRelativePath,
  resolveInside,
  type RelativePath,
} from '../workspace/workspace-paths';
import { changingFile } from '../workspace/exclusive';
import { withFoldersAgain } from '../workspace/folders-again';
import { writeAtomically } from '../workspace/write-atomically';
import { hashedFiles } from '../workspace/workspace-walk';

export type FileEntry = {
  path: string;
  size: number;
  /** Our extension: hex SHA-256 of the bytes, so a client can tell a same-size edit. */
  sha256?: string;
  /** Our extension: the file's version, for `If-Match` on PUT and DELETE (the quoted sha256). */
  etag?: string;
};

/** A file's version as an HTTP entity tag: its content hash, quoted (a strong ETag). */
export function etagOf(sha256: string): string {
  return `"${sha256}"`;
}

export function etagOfBytes(bytes: Uint8Array): string {
  return etagOf(createHash('sha256').update(bytes).digest('hex'));
}

/** The version of a whole listing, so a poller can ask `If-None-Match` and get 304 when nothing moved. */
export function listingEtag(listing: FileListing): string {
  const digest = createHash('sha256');
  for (const file of listing.files) digest.update(`${file.path}\0${file.size}\0${file.sha256 ?? ''}\n`);
  return `"${digest.digest('hex')}"`;
}

/**
 * Conditions of a write or delete (our extension): `ifMatch` is the version the client saw
 * (`*` = any existing file), `ifNoneMatch: '*'` means "only if no file is there yet".
 */
export interface WriteConditions {
  ifMatch?: string | undefined;
  ifNoneMatch?: string | undefined;
}

/** The file moved since the client read it: 412, with the version it holds now. */
export class PreconditionFailed extends Error {
  constructor(
    readonly current: string | null,
    rel: string,
  ) {
    super(
      current === null
        ? `"${rel}" is no longer in the workspace; list it again before writing.`
        : `"${rel}" changed since you read it; read it again (its version is now ${current}).`,
    );
    this.name = 'PreconditionFailed';
  }
}

export interface FileListing {
  dir: string;
  files: FileEntry[];
}

/** How the machine names a workspace path (`/data/work/<rel>`). */
export function machinePath(rel: string): string {
  return rel ? `${MACHINE_WORKSPACE}/${rel}` : MACHINE_WORKSPACE;
}

function reservedError(rel: string): WorkspacePathError {
  return new WorkspacePathError(
    'invalid_path',
    `"${rel}" is the skills folder; manage skills through /skills/{slug} instead.`,
  );
}

/**
 * Files under one agent's workspace folder. Every operation validates the path, refuses symlinks
 * and never reads or writes outside `root`.
 */
export class WorkspaceFiles {
  constructor(readonly root: string) {}

  /** Parse a client path; the reserved skills folder is refused here. */
  parse(raw: string, opts: { allowRoot?: boolean } = {}): RelativePath {
    const rel = parseRelativePath(raw, opts);
    if (isReservedPath(rel.segments)) throw reservedError(rel.rel);
    return rel;
  }

  /**
   * The listing of a folder, recursive: every regular file with its size and its path relative to
   * the workspace. A path naming a file lists that file alone. Symlinks and the skills folder are
   * left out. A missing workspace lists as empty; a missing sub-path is `not_found`.
   */
  async list(relPath: RelativePath): Promise<FileListing> {
    const resolved = await resolveInside(this.root, relPath);
    if (!resolved.stat) {
      if (relPath.segments.length === 0) return { dir: machinePath(''), files: [] };
      throw new WorkspacePathError('not_found', `Nothing at "${relPath.rel}" in the workspace.`);
    }
    if (resolved.stat.isFile()) {
      const parent = relPath.segments.slice(0, -1).join('/');
      const sha256 = await workspaceHashes.sha256(resolved.absolute, resolved.stat);
      const entry = { path: relPath.rel, size: resolved.stat.size, sha256, etag: etagOf(sha256) };
      return { dir: machinePath(parent), files: [entry] };
    }
    if (!resolved.stat.isDirectory()) return { dir: machinePath(relPath.rel), files: [] };
    const files: FileEntry[] = [];
    await this.walk(resolved.absolute, relPath.segments, files);
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { dir: machinePath(relPath.rel), files };
  }

  private async walk(absDir: string, segments: string[], out: FileEntry[]): Promise<void> {
    for (const { rel, size, sha256 } of await hashedFiles(absDir, segments))
      out.push({ path: rel, size, sha256, etag: etagOf(sha256) });
  }

  /**
   * Refuses with PreconditionFailed when the file at `absolute` (already resolved inside the root,
   * so its parents were checked) is not at the version the client named. A write renames onto that
   * same absolute path, so one lstat of it is the whole check; the file is hashed only when a tag
   * must be compared or a refusal must name the version it holds.
   */
  private async checkConditions(rel: string, absolute: string, conditions: WriteConditions): Promise<void> {
    const { ifMatch, ifNoneMatch } = conditions;
    if (ifMatch === undefined && ifNoneMatch === undefined) return;
    const stat = await lstatOrNull(absolute);
    const file = stat?.isFile() ? stat : null;
    const version = async () => (file ? etagOf(await workspaceHashes.sha256(absolute, file)) : null);
    if (ifNoneMatch !== undefined && file) {
      const current = await version();
      if (ifNoneMatch.trim() === '*' || matches(ifNoneMatch, current!))
        throw new PreconditionFailed(current, rel);
    }
    if (ifMatch !== undefined) {
      const current = await version();
      if (current === null || !(ifMatch.trim() === '*' || matches(ifMatch, current)))
        throw new PreconditionFailed(current, rel);
    }
  }

  /** The bytes of one file. Opened with O_NOFOLLOW so a link swapped in at the last moment is refused. */
  async read(relPath: RelativePath): Promise<Buffer> {
    const resolved = await resolveInside(this.root, relPath);
    if (!resolved.stat) throw new WorkspacePathError('not_found', `No file at "${relPath.rel}".`);
    if (!resolved.stat.isFile()) {
      throw new WorkspacePathError('is_directory', `"${relPath.rel || '/'}" is a folder, not a file.`);
    }
    const handle = await open(resolved.absolute, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /**
   * Write a whole file atomically: a temp file beside it, fsync, then rename over the target, so a
   * reader sees either the old or the new contents. Parents are created as needed.
   */
  async write(
    relPath: RelativePath,
    bytes: Uint8Array,
    conditions: WriteConditions = {},
  ): Promise<{ path: string; bytes: number; en: string; etag: string }> {
    if (relPath.segments.length === 0) {
      throw new WorkspacePathError('invalid_path', 'A file path is needed, not the workspace root.');
    }
    // Hashed once: the version the answer names, and the one the next listing reads without the disk.
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await mkdir(this.root, { recursive: true });
    const resolved = await resolveInside(this.root, relPath, { createParents: true });
    if (resolved.stat?.isDirectory()) {
      throw new WorkspacePathError('is_directory', `"${relPath.rel}" is a folder; it cannot become a file.`);
    }
    // Checked as late as possible: right before the rename that replaces the file. One change of a
    // file at a time, so no other write lands between that check and the rename (it would be lost).
    await changingFile(resolved.absolute, async () => {
      const written = await withFoldersAgain(
        () => resolveInside(this.root, relPath, { createParents: true }),
        () =>
          writeAtomically(resolved.absolute, bytes, () =>
            this.checkConditions(relPath.rel, resolved.absolute, conditions),
          ),
      );
      // The next listing need not read back what was just written (after a first sync of 100,000
      // files, the engine's start waited for all of them to be hashed), unless the agent has
      // already replaced or rewritten the file: then its inode or mtime moved.
      const now = await lstatOrNull(resolved.absolute);
      if (
        now?.isFile() &&
        now.ino === written.ino &&
        now.mtimeMs === written.mtimeMs &&
        now.size === written.size
      )
        workspaceHashes.remember(resolved.absolute, now, sha256);
    });
    return { path: relPath.rel, bytes: bytes.byteLength, en: machinePath(relPath.rel), etag: etagOf(sha256) };
  }

  /** Delete a file, or a folder with everything in it (links inside are removed, never followed). */
  async delete(relPath: RelativePath, conditions: WriteConditions = {}): Promise<void> {
    if (relPath.segments.length === 0) {
      throw new WorkspacePathError('invalid_path', 'The workspace root itself cannot be deleted.');
    }
    const resolved = await resolveInside(this.root, relPath);
    if (!resolved.stat) throw new WorkspacePathError('not_found', `Nothing at "${relPath.rel}".`);
    const stat = resolved.stat;
    // As for a write: no other write of the file between the check and the unlink.
    await changingFile(resolved.absolute, async () => {
      await this.checkConditions(relPath.rel, resolved.absolute, conditions);
      if (stat.isDirectory()) await rm(resolved.absolute, { recursive: true, force: true });
      else await unlink(resolved.absolute);
    });
    await this.pruneEmptyParents(relPath.segments.slice(0, -1));
  }

  /** Listings never show empty folders, so none is left behind to block a file of the same name later. */
  private async pruneEmptyParents(segments: string[]): Promise<void> {
    for (let depth = segments.length; depth > 0; depth -= 1) {
      const folder = path.join(this.root, ...segments.slice(0, depth));
      const left = await readdir(folder).catch(() => ['(unreadable)']);
      if (left.length > 0) return;
      await rmdir(folder).catch(() => undefined);
    }
  }
}

/** Whether an `If-Match` / `If-None-Match` list names `etag` (weak tags compare by their value). */
function matches(header: string, etag: string): boolean {
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
