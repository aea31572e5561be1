import { randomBytes } from 'node:crypto';
import { lstat, mkdir } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { SKILLS_DIR } from './agent-layout';

/** Why a workspace path was refused; `message` is a plain sentence for `detalle`. */
export type PathErrorCode = 'invalid_path' | 'not_found' | 'symlink' | 'not_a_directory' | 'is_directory';

export class WorkspacePathError extends Error {
  constructor(
    readonly code: PathErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WorkspacePathError';
  }
}

/** A validated relative path: POSIX segments with no `.`, `..` or empty parts. */
export interface RelativePath {
  segments: string[];
  /** The segments joined with `/` ('' for the root). */
  rel: string;
}

const CONTROL_CHARS = /\p{Cc}/u;
const DRIVE_LETTER = /^[A-Za-z]:/;
const MAX_SEGMENT = 255;
const MAX_PATH = 4096;

/** Names the service itself writes while a file is being replaced; never listed, never addressable. */
export const TEMP_PREFIX = '.agentdesk-tmp-';
/** The whole of such a name: the prefix and 12 hex digits (`tempName`), nothing before or after. */
const TEMP_NAME = new RegExp(`^${TEMP_PREFIX.replace(/[.-]/g, '\\$&')}[0-9a-f]{12}$`);

/** A fresh name for a temp file or a skill's staging folder, beside what it replaces. */
export function tempName(): string {
  return `${TEMP_PREFIX}${randomBytes(6).toString('hex')}`;
}

/** Whether `name` is exactly one `tempName()` gave (a killed service's leftover), not one merely like it. */
export function isTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/**
 * Validate a client-supplied path relative to a root. Refuses absolute paths, drive letters,
 * backslashes, control characters, `.`/`..` and empty segments; a single trailing `/` is allowed.
 */
export function parseRelativePath(raw: string, opts: { allowRoot?: boolean } = {}): RelativePath {
  const value = raw.normalize('NFC');
  const refuse = (why: string): never => {
    throw new WorkspacePathError('invalid_path', `The path "${printable(raw)}" is not allowed: ${why}.`);
  };
  if (value.length > MAX_PATH) refuse('it is too long');
  if (CONTROL_CHARS.test(value)) refuse('it contains control characters');
  if (value.includes('\\')) refuse('backslashes are not path separators here');
  if (value.startsWith('/')) refuse('absolute paths are refused; give a path relative to the workspace');
  if (DRIVE_LETTER.test(value)) refuse('drive letters are refused');
  const trimmed = value.endsWith('/') ? value.slice(0, -1) : value;
  if (trimmed === '') {
    if (opts.allowRoot) return { segments: [], rel: '' };
    refuse('it is empty');
  }
  const segments = trimmed.split('/');
  for (const segment of segments) {
    if (segment === '') refuse('it has an empty segment');
    if (segment === '.' || segment === '..') refuse('"." and ".." segments are refused');
    if (segment.length > MAX_SEGMENT) refuse('a segment is longer than 255 characters');
    if (segment.startsWith(TEMP_PREFIX)) refuse('the name is reserved for temporary files');
  }
  return { segments, rel: segments.join('/') };
}

function printable(raw: string): string {
  return raw.replace(/\p{Cc}/gu, '?').slice(0, 200);
}

/** True when `rel` is the reserved skills folder or inside it (managed through the skills routes). */
export function isReservedPath(segments: readonly string[]): boolean {
  const reserved = SKILLS_DIR.split('/');
  if (segments.length < reserved.length) return false;
  return reserved.every((part, i) => segments[i] === part);
}

export interface ResolvedPath {
  /** Absolute path on the service's disk. */
  absolute: string;
  /** lstat of the final component, or null when it does not exist. */
  stat: Stats | null;
}

/**
 * Resolve a validated relative path under `root` without ever following a symlink: every existing
 * component is lstat'ed and a symlink anywhere is refused, so nothing outside the root is reached.
 * With `createParents`, missing parent folders are created one at a time and re-checked.
 */
export async function resolveInside(
  root: string,
  relPath: RelativePath,
  opts: { createParents?: boolean } = {},
): Promise<ResolvedPath> {
  let current = root;
  const { segments } = relPath;
  for (let i = 0; i < segments.length; i++) {
    current = path.join(current, segments[i] as string);
    const isLast = i === segments.length - 1;
    let stat = await lstatOrNull(current);
    if (!stat && !isLast && opts.createParents) {
      await mkdir(current).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      stat = await lstatOrNull(current);
    }
    if (!stat) {
      if (isLast || opts.createParents) return { absolute: current, stat: null };
      return { absolute: path.join(current, ...segments.slice(i + 1)), stat: null };
    }
    if (stat.isSymbolicLink()) {
      throw new WorkspacePathError(
        'symlink',
        `The path "${relPath.rel}" goes through a symbolic link; links are never followed.`,
      );
    }
    if (isLast) return { absolute: current, stat };
    if (!stat.isDirectory()) {
      throw new WorkspacePathError(
        'not_a_directory',
        `"${segments.slice(0, i + 1).join('/')}" is a file, not a folder.`,
      );
    }
  }
  return { absolute: root, stat: await lstatOrNull(root) };
}

export async function lstatOrNull(p: string): Promise<Stats | null> {
  try {
    return await lstat(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}
