import { createHash } from 'node:crypto';

/**
 * The version of an agent's bundle (our extension): a poller sends it as `If-None-Match` on
 * GET /bundle and gets 304 while nothing moved. sha256 over `path\0contentBase64\n` per file, quoted;
 * the sync computes the same from a bundle it read (src/core/sync/remote/bundle-version.ts).
 */
export function bundleEtag(files: readonly { path: string; contentBase64: string }[]): string {
  const digest = createHash('sha256');
  for (const file of files) digest.update(`${file.path}\0${file.contentBase64}\n`);
  return `"${digest.digest('hex')}"`;
}
