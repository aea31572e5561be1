/**
 * The versions of a machine agent's workspace files, as our service offers them (docs/agent-config.md):
 * conditional writes (If-Match / If-None-Match, 412 when the file moved) and a listing version for a
 * cheap poll (304 while nothing moved). Against a server without them, the entry is read again
 * right before each write, and the poll compares whole listings.
 */
import type { ApiClient } from '../../api/api-client';
import { unwrap } from './api-remote-error';
import { withDeadline, type DeadlineTiming } from './request-deadline';
import { workspaceListingVersion } from './listing-version';
import { RemoteMoved, stillExpected, type Expected } from '../plan/remote-side';

/** A workspace listing's files, as the API client reads them. */
export type WorkspaceFiles = Extract<
  Awaited<ReturnType<ApiClient['listWorkspace']>>,
  { ok: true }
>['value']['files'];

export class WorkspaceVersions {
  /** Whether the server gives versions: then writes carry conditions instead of a read before. */
  private conditional = false;
  private probed = false;
  /** The workspace listing's version as of the last look. */
  private version: string | undefined;

  constructor(
    private readonly api: ApiClient,
    private readonly agentId: string,
    /** Every request's deadline (default: request-deadline.ts). */
    private readonly deadline?: DeadlineTiming,
  ) {}

  /** The workspace listing (of `rel`), under its deadline, with conditional headers when given. */
  private listing(rel: string, headers?: Record<string, string>) {
    return withDeadline((o) => this.api.listWorkspace(this.agentId, rel, o), {
      timing: this.deadline,
      ...(headers ? { headers } : {}),
    });
  }

  /** Notes a fresh listing: its version, and whether the server gives versions at all. */
  async sawListing(files: WorkspaceFiles): Promise<void> {
    this.version = workspaceListingVersion(files);
    if (files.some((file) => typeof (file as { etag?: unknown }).etag === 'string')) this.conditional = true;
    if (this.probed || this.conditional) return;
    // An empty workspace shows no etag: one conditional listing (304 to its own version) tells.
    this.probed = true;
    const result = await this.listing('', { 'if-none-match': this.version });
    if (!result.ok && result.error.status === 304) this.conditional = true;
  }

  /**
   * Asks for the listing with If-None-Match: 304 (or the same listing) means nothing moved, and
   * resolves to false. A moved listing resolves to its files (a remote pass plans from them
   * instead of listing again); a failed look to true, so a cycle reports the failure.
   */
  async look(): Promise<false | true | WorkspaceFiles> {
    const known = this.version;
    const result = await this.listing('', known ? { 'if-none-match': known } : undefined);
    if (!result.ok) return result.error.status !== 304;
    return workspaceListingVersion(result.value.files) !== known && result.value.files;
  }

  /**
   * The headers of a write of workspace file `rel` that expects `expected`. Without its version
   * (a server without them, or a base the fast path plans from) the entry is read again first: a
   * file that moved rejects with RemoteMoved, and one that did not is written on the version read.
   */
  async conditionsFor(rel: string, expected: Expected): Promise<Record<string, string>> {
    if (expected === undefined) return {};
    if (this.conditional && (expected === null || expected.etag)) {
      return expected === null ? { 'if-none-match': '*' } : { 'if-match': expected.etag! };
    }
    const result = await this.listing(rel);
    if (!result.ok && result.error.status !== 404) unwrap(result, `Checking work/${rel}`);
    const file = result.ok ? result.value.files[0] : undefined;
    const sha256 = (file as { sha256?: unknown } | undefined)?.sha256;
    const current = file && { size: file.size, ...(typeof sha256 === 'string' ? { sha256 } : {}) };
    if (!stillExpected(current, expected)) throw new RemoteMoved(`work/${rel}`);
    if (expected === null) return { 'if-none-match': '*' };
    // The version just read, where the server names one: a write landing in between is refused.
    const etag = (file as { etag?: unknown } | undefined)?.etag;
    return typeof etag === 'string' ? { 'if-match': etag } : {};
  }
}
