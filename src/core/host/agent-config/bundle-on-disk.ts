import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { LIMITS, type Bundle } from '../../../shared/api';

/**
 * An agent's bundle on this computer: written out as a folder or a `.zip`, and read back from
 * either. Every file is checked against the 10 MB per-file cap before anything is read whole or sent.
 */

export function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(homedir(), path.slice(2));
  return path;
}

export type DiskResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** Writes each bundle file under `folder`, refusing any path that would leave it. */
export async function writeBundleFolder(bundle: Bundle, folder: string): Promise<DiskResult<number>> {
  const root = resolve(folder);
  for (const file of bundle.files) {
    const target = resolve(root, file.path);
    if (target !== root && !target.startsWith(root + sep))
      return { ok: false, message: `The bundle names a path outside the folder: ${file.path}` };
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, Buffer.from(file.contentBase64, 'base64'));
  }
  return { ok: true, value: bundle.files.length };
}

export async function writeBundleZip(bundle: Bundle, zipPath: string): Promise<DiskResult<number>> {
  const entries: Record<string, Uint8Array> = {};
  for (const file of bundle.files)
    entries[file.path] = new Uint8Array(Buffer.from(file.contentBase64, 'base64'));
  await mkdir(dirname(resolve(zipPath)), { recursive: true });
  await writeFile(zipPath, zipSync(entries));
  return { ok: true, value: bundle.files.length };
}

const tooBig = (path: string, size: number) =>
  `${path} is ${(size / 1024 / 1024).toFixed(1)} MB; a file to import may be at most 10 MB. Nothing was sent.`;

/** Reads a bundle from a folder (every file under it) or a `.zip` file. */
export async function readBundle(path: string): Promise<DiskResult<Bundle>> {
  const full = resolve(expandHome(path));
  let info;
  try {
    info = await stat(full);
  } catch {
    return { ok: false, message: `Nothing is at ${full}.` };
  }
  return info.isDirectory() ? readBundleFolder(full) : readBundleZip(full);
}

async function readBundleFolder(root: string): Promise<DiskResult<Bundle>> {
  const paths: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const at = join(dir, entry.name);
      if (entry.isDirectory()) await walk(at);
      else if (entry.isFile()) paths.push(at);
    }
  };
  await walk(root);
  // The cap first, on sizes alone.
  for (const at of paths) {
    const size = (await stat(at)).size;
    if (size > LIMITS.workspaceFileBytesMax) return { ok: false, message: tooBig(relative(root, at), size) };
  }
  const files = await Promise.all(
    paths.map(async (at) => ({
      path: relative(root, at).split(sep).join('/'),
      contentBase64: (await readFile(at)).toString('base64'),
    })),
  );
  return { ok: true, value: { layout: 'dir', files } };
}

async function readBundleZip(zipPath: string): Promise<DiskResult<Bundle>> {
  let entries: Record<string, Uint8Array>;
  const oversize: string[] = [];
  try {
    entries = unzipSync(new Uint8Array(await readFile(zipPath)), {
      // Sizes come from the zip's own headers, before anything is inflated.
      filter: (file) => {
        if (file.originalSize > LIMITS.workspaceFileBytesMax)
          oversize.push(tooBig(file.name, file.originalSize));
        return !file.name.endsWith('/') && file.originalSize <= LIMITS.workspaceFileBytesMax;
      },
    });
  } catch {
    return { ok: false, message: `${zipPath} is neither a folder nor a readable .zip file.` };
  }
  if (oversize[0]) return { ok: false, message: oversize[0] };
  const files = Object.entries(entries)
    .filter(([name]) => !isAbsolute(name))
    .map(([name, bytes]) => ({ path: name, contentBase64: Buffer.from(bytes).toString('base64') }));
  return { ok: true, value: { layout: 'dir', files } };
}
