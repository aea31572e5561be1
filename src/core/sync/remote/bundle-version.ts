/**
 * The cheap look at an agent's configuration (instructions, MCP servers, skills, a bundle agent's
 * knowledge): GET /bundle with `If-None-Match` set to the version of the bundle last read. Our
 * service answers 304 while nothing moved (docs/extensions.md); any other server sends the bundle,
 * and its version is compared with the known one.
 */
import { createHash } from 'node:crypto';
import type { ApiResult } from '../../api/api-request';

export interface BundleFiles {
  files: readonly { path: string; contentBase64: string }[];
}

/** The version of a bundle, computed the way our service computes its ETag (service/agent-config/bundle-etag.ts). */
export function bundleVersion(files: BundleFiles['files']): string {
  const digest = createHash('sha256');
  for (const file of files) digest.update(`${file.path}\0${file.contentBase64}\n`);
  return `"${digest.digest('hex')}"`;
}

export class BundleVersion {
  /** The version of the bundle as last read by the sync (undefined: never read). */
  private known: string | undefined;

  /** `read` gets the bundle, conditionally when given headers. */
  constructor(private readonly read: (headers?: Record<string, string>) => Promise<ApiResult<BundleFiles>>) {}

  /** Notes a bundle the sync read (a listing, or the read-back after a write). */
  saw(files: BundleFiles['files']): void {
    this.known = bundleVersion(files);
  }

  /** Whether the bundle moved since it was last read; a failed look says yes, so a cycle reports it. */
  async hasChanged(): Promise<boolean> {
    const known = this.known;
    if (known === undefined) return true;
    const result = await this.read({ 'if-none-match': known });
    if (!result.ok) return result.error.status !== 304;
    return bundleVersion(result.value.files) !== known;
  }
}
