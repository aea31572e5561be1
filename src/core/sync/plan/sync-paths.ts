/**
 * Path rules for sync: how a path is keyed, which remote names are refused,
 * and which local names are never synced. Pure: no file-system access here.
 */

/** Key a path by case-folded NFC, so `Readme.md` and `README.md` (or NFD vs NFC) are one path. */
export function pathKey(path: string): string {
  return path.normalize('NFC').toLowerCase();
}

export type PathRejection = { ok: false; reason: string };
export type SafePath = { ok: true; path: string };

const utf8 = new TextEncoder();
const windowsReserved = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
// C0 and C1 control characters, NUL included.
// eslint-disable-next-line no-control-regex
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Checks a path named by the remote side before it may touch the local disk.
 * Returns the NFC, POSIX, relative form, or why it is refused.
 */
export function sanitizeRemotePath(raw: string): SafePath | PathRejection {
  if (raw.length === 0) return { ok: false, reason: 'empty path' };
  if (controlCharacter.test(raw)) return { ok: false, reason: 'control character in name' };
  if (raw.includes('\\')) return { ok: false, reason: 'backslash in name' };
  if (/^[a-zA-Z]:/.test(raw)) return { ok: false, reason: 'drive letter' };
  if (raw.startsWith('/')) return { ok: false, reason: 'absolute path' };
  const path = raw.normalize('NFC');
  const parts = path.split('/');
  for (const part of parts) {
    if (part === '' || part === '.') return { ok: false, reason: 'empty path segment' };
    if (part === '..') return { ok: false, reason: 'parent directory segment' };
    if (windowsReserved.test(part)) return { ok: false, reason: `reserved name "${part}"` };
    // No common file system holds a longer name; writing it would fail with ENAMETOOLONG.
    // A UTF-16 unit takes at most 3 bytes, so only a long name is encoded to count them.
    if (part.length > 85 && utf8.encode(part).length > 255)
      return { ok: false, reason: 'name longer than 255 bytes' };
    if (/[. ]$/.test(part)) return { ok: false, reason: 'name ends with a dot or space' };
    if (/[<>:"|?*]/.test(part)) return { ok: false, reason: 'character not allowed on Windows' };
  }
  return { ok: true, path };
}

/** The marker file in the sync root that names the agent. */
export const rootMarkerName = '.agentdesk';
/** The person's own ignore rules, gitignore syntax. */
export const ignoreFileName = '.agentdeskignore';
/** Prefix of the engine's own temporary files; never watched or synced. */
export const tempFilePrefix = '.agentdesk-tmp-';

const conflictCopyPattern = /\.conflict-remote-\d{8}-\d{6}(-\d+)?(\.[^/]*)?$/;

/** A name shaped like the engine's copies; only copies the engine recorded are its own. */
export function looksLikeConflictCopy(path: string): boolean {
  return conflictCopyPattern.test(path.slice(path.lastIndexOf('/') + 1));
}

/** Version-control and dependency folders: never synced, on either side. */
const ignoredFolders = new Set([
  '.git',
  '.hg',
  '.svn',
  '.bzr',
  '_darcs',
  'CVS',
  'node_modules',
  'bower_components',
  '.venv',
  '__pycache__',
  '.pnpm-store',
]);

/** Temp, lock, swap and backup files of common writers (each a name they make and drop again). */
const ignoredNames: readonly RegExp[] = [
  /^\.DS_Store$|^Thumbs\.db$|^desktop\.ini$/i,
  /^\..*\.sw[a-p]$/, // vim swap
  /^4913$/, // vim's write test
  /~$/, // vim, emacs, gedit backups
  /^\.#|^#.*#$/, // emacs locks and autosaves
  /^\.~lock\..*#$/, // LibreOffice locks
  /^~\$|^~WRL\d+\.tmp$/i, // Office owner files and temp saves
  /\.tmp$/i, // atomic-save temp files (VS Code, Office, many tools)
  /___jb_(tmp|old|bak)___$/, // JetBrains safe-write
  /^\..+\.(?=[A-Za-z0-9]*[A-Z0-9])[A-Za-z0-9]{6}$/, // rsync: .name.XXXXXX
];

/** Names that are never synced, whatever the ignore file says, wherever they live (local or remote). */
export function isAlwaysIgnored(path: string): boolean {
  const parts = path.split('/');
  const name = parts[parts.length - 1] ?? '';
  if (parts.some((part) => ignoredFolders.has(part))) return true;
  if (name === rootMarkerName || name === ignoreFileName) return parts.length === 1;
  if (name.startsWith(tempFilePrefix)) return true;
  return ignoredNames.some((pattern) => pattern.test(name));
}

/** Longest file name most file systems take, in UTF-8 bytes. */
export const maxNameBytes = 255;

/**
 * `notes.md` → `notes.conflict-remote-20261121-071500.md`, in local time; the `n`th copy of
 * one second gets `-n` after the time (`…-071500-2.md`). A long name is shortened so the copy's
 * name fits the file system's limit.
 */
export function conflictCopyName(path: string, at: Date, n = 1, label = 'conflict-remote'): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp =
    `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}-` +
    `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}${n > 1 ? `-${n}` : ''}`;
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  let stem = dot <= 0 ? name : name.slice(0, dot);
  let ext = dot <= 0 ? '' : name.slice(dot);
  const tag = `.${label}-${stamp}`;
  const bytes = (text: string) => Buffer.byteLength(text);
  if (bytes(ext) > 32) ext = '';
  while (stem.length > 1 && bytes(stem + tag + ext) > maxNameBytes) stem = [...stem].slice(0, -1).join('');
  return `${dir}${stem}${tag}${ext}`;
}
