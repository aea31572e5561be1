import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';

interface Known {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  sha256: string;
}

/** Files up to this size are read in one call: a stream per small file cost more than its hash. */
const wholeReadMax = 1024 * 1024;

/**
 * SHA-256 of workspace files for listings (our extension: clients such as sync
 * see a same-size edit). A file is hashed again only when its size, times or
 * inode moved, so re-listing a large workspace costs stats, not reads.
 */
export class ContentHashCache {
  private readonly known = new Map<string, Known>();

  constructor(private readonly maxEntries = 200_000) {}

  /** The hash remembered for this very file (same size, times and inode), without reading it. */
  cached(absolutePath: string, stat: Stats): string | undefined {
    const hit = this.known.get(absolutePath);
    return hit &&
      hit.size === stat.size &&
      hit.mtimeMs === stat.mtimeMs &&
      hit.ctimeMs === stat.ctimeMs &&
      hit.ino === stat.ino
      ? hit.sha256
      : undefined;
  }

  async sha256(absolutePath: string, stat: Stats): Promise<string> {
    const hit = this.cached(absolutePath, stat);
    if (hit !== undefined) return hit;
    const hash = createHash('sha256');
    if (stat.size <= wholeReadMax) hash.update(await readFile(absolutePath));
    else for await (const chunk of createReadStream(absolutePath)) hash.update(chunk as Buffer);
    const sha256 = hash.digest('hex');
    this.remember(absolutePath, stat, sha256);
    return sha256;
  }

  /** Notes the hash of this very file, known without reading it (the service just wrote its bytes). */
  remember(absolutePath: string, stat: Stats, sha256: string): void {
    if (this.known.size >= this.maxEntries) this.known.clear();
    this.known.set(absolutePath, {
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      ctimeMs: stat.ctimeMs,
      ino: stat.ino,
      sha256,
    });
  }
}

/** One cache for the whole service: every listing of every agent shares it. */
export const workspaceHashes = new ContentHashCache();
