import { createHash } from 'node:crypto';

/**
 * The version of a workspace listing, computed the way our service computes the listing's ETag
 * (sha256 over `path\0size\0sha256\n` per file, quoted). A poll sends it as If-None-Match: our
 * service answers 304 while nothing moved; any server's listing can still be compared with it.
 */
export function workspaceListingVersion(files: readonly { path: string; size: number }[]): string {
  const digest = createHash('sha256');
  for (const file of files) {
    const sha256 = (file as { sha256?: unknown }).sha256;
    digest.update(`${file.path}\0${file.size}\0${typeof sha256 === 'string' ? sha256 : ''}\n`);
  }
  return `"${digest.digest('hex')}"`;
}
