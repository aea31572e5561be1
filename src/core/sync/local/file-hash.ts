import { createHash, hash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** Hex SHA-256 of a file, streamed so large files don't sit in memory. */
export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** Hex SHA-256 of bytes in memory (one-shot: no Hash object per file). */
export function hashBytes(bytes: Uint8Array): string {
  return hash('sha256', bytes, 'hex');
}
