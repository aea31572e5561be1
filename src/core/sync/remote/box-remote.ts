/**
 * The remote side of a machine agent (`storage: box`), in the folder layout:
 *   instructions.md ↔ the agent's prompt        mcp.json ↔ GET/PUT /mcp
 *   skills/<slug>/… ↔ PUT/DELETE /skills/{slug}  work/**   ↔ /files/{path}
 * The prompt, MCP list and skill contents are read from one GET /bundle per listing.
 */
import type { ApiClient } from '../../api/api-client';
import type { ApiResult, CallOptions } from '../../api/api-request';
import { unwrap } from './api-remote-error';
import { BundleVersion, type BundleFiles } from './bundle-version';
import { hashBytes } from '../local/file-hash';
import { parseMcpFile } from './mcp-file';
import { withDeadline, type DeadlineTiming } from './request-deadline';
import { SkillSender } from './skill-sender';
import { WorkspaceVersions, type WorkspaceFiles } from './workspace-versions';
import {
  RemoteError,
  RemoteMoved,
  inLayout,
  stillExpected,
  type Expected,
  type RemoteSide,
} from '../plan/remote-side';
import type { RemoteEntry, RemoteFingerprint } from '../plan/sync-plan-types';

const workPrefix = 'work/';

export interface BoxRemoteOptions {
  api: ApiClient;
  agentId: string;
  /** The local sync root: a skill is always sent whole, read from here. */
  root: string;
  /** Every request's deadline (default: request-deadline.ts). */
  deadline?: DeadlineTiming;
}

export class BoxRemote implements RemoteSide {
  /** The configuration files always list (instructions.md, mcp.json); the workspace lists on its own. */
  readonly listedGroups = ['', workPrefix];
  /** Bytes of the non-workspace files, from the latest listing. */
  private config = new Map<string, Uint8Array>();
  /** Sizes of the workspace files and of the whole bundle as last listed, for each request's deadline. */
  private sizes = new Map<string, number>();
  private bundleBytes = 0;
  private uploadOnly = false;
  private probed = false;
  private readonly skills: SkillSender;
  /** The configuration's version as last listed, for the cheap poll. */
  private readonly bundle: BundleVersion;
  /** How many times the poll looked: the configuration is looked at on every other look. */
  private looks = 0;
  /** The workspace listing the last look found moved, until a remote pass takes it (`listLooked`). */
  private looked: WorkspaceFiles | undefined;

  /** The workspace's versions: conditional writes and the cheap poll. */
  private readonly versions: WorkspaceVersions;

  constructor(private readonly options: BoxRemoteOptions) {
    this.versions = new WorkspaceVersions(options.api, options.agentId, options.deadline);
    this.skills = new SkillSender(options);
    this.bundle = new BundleVersion((headers) =>
      this.call((o) => options.api.getBundle(options.agentId, o), this.bundleBytes, headers),
    );
  }

  get limitation(): string | undefined {
    return this.uploadOnly
      ? "This server can't send workspace files back, so work/ only uploads: changes the agent makes there are not downloaded."
      : undefined;
  }

  async list(): Promise<RemoteEntry[]> {
    const { api, agentId } = this.options;
    this.looked = undefined;
    const [bundle, listing] = await Promise.all([
      this.readBundle(),
      this.call((o) => api.listWorkspace(agentId, '', o)).then((r) =>
        unwrap(r, "Listing the agent's workspace"),
      ),
    ]);
    return this.entriesOf(bundle, listing.files);
  }

  /**
   * The listing the last look found moved, with the configuration read now: a remote pass plans
   * from it instead of listing 100,000 files a second time. Taken once; undefined when the last
   * look saw no workspace change (or a listing came since).
   */
  async listLooked(): Promise<RemoteEntry[] | undefined> {
    const files = this.looked;
    this.looked = undefined;
    return files && this.entriesOf(await this.readBundle(), files);
  }

  private readBundle() {
    const { api, agentId } = this.options;
    return this.call((o) => api.getBundle(agentId, o), this.bundleBytes).then((r) =>
      unwrap(r, "Reading the agent's configuration"),
    );
  }

  private async entriesOf(bundle: BundleFiles, files: WorkspaceFiles): Promise<RemoteEntry[]> {
    this.noteBundleSize(bundle.files);
    // Only a listing moves the known version: a change the engine's own re-reads see is still news.
    this.bundle.saw(bundle.files);
    this.sizes = new Map(files.map((file) => [file.path, file.size]));
    this.config = new Map();
    this.skills.reset();
    const entries: RemoteEntry[] = [];
    for (const file of bundle.files) {
      // Knowledge of a machine agent lives in its workspace, and is synced there as work/knowledge/.
      if (file.path.startsWith('knowledge/')) continue;
      const bytes = Buffer.from(file.contentBase64, 'base64');
      this.config.set(file.path, bytes);
      entries.push({ path: file.path, size: bytes.length, sha256: hashBytes(bytes) });
    }
    await this.versions.sawListing(files);
    for (const file of files) {
      const { sha256, etag } = file as { sha256?: unknown; etag?: unknown };
      entries.push({
        path: workPrefix + file.path,
        size: file.size,
        ...(typeof sha256 === 'string' ? { sha256 } : {}),
        ...(typeof etag === 'string' ? { etag } : {}),
      });
    }
    if (!this.probed && files.length > 0) {
      // The smallest file makes the cheapest probe (a large one would delay the first sync).
      const smallest = files.reduce((a, b) => (b.size < a.size ? b : a));
      await this.probeByteRoute(smallest.path);
    }
    return entries;
  }

  accepts(path: string): boolean {
    return inLayout(path, 'box');
  }

  get serverUrl(): string {
    return this.options.api.baseUrl;
  }

  /**
   * The workspace listing on every look, the configuration on every other one, each conditionally:
   * one request per look instead of two on most looks (idle CPU), and a change of either still
   * reaches the folder within two poll periods (4 s in watch mode). A moved workspace runs a
   * cycle, which lists the configuration anyway.
   */
  async hasChanged(): Promise<boolean> {
    this.looked = undefined;
    const configToo = this.looks++ % 2 === 0;
    const workspace = await this.versions.look();
    if (Array.isArray(workspace)) this.looked = workspace;
    if (workspace) return true;
    return configToo && this.bundle.hasChanged();
  }

  canRead(path: string): boolean {
    return !(path.startsWith(workPrefix) && this.uploadOnly);
  }

  async read(path: string): Promise<Uint8Array> {
    if (!path.startsWith(workPrefix)) {
      const bytes = this.config.get(path);
      if (!bytes) throw new RemoteError(`${path} is no longer on the agent.`, 404, undefined, true);
      return bytes;
    }
    const rel = path.slice(workPrefix.length);
    const result = unwrap(
      await this.call(
        (o) => this.options.api.readWorkspaceFile(this.options.agentId, rel, o),
        this.sizes.get(rel),
      ),
      `Downloading ${path}`,
    );
    if (result.kind === 'listing') {
      this.uploadOnly = true;
      throw new RemoteError(`${path} can't be downloaded from this server.`, 406, undefined, true);
    }
    return result.bytes;
  }

  async write(path: string, bytes: Uint8Array, expected?: Expected): Promise<RemoteFingerprint | undefined> {
    const { api, agentId } = this.options;
    if (path.startsWith(workPrefix)) {
      const rel = path.slice(workPrefix.length);
      const headers = await this.versions.conditionsFor(path.slice(workPrefix.length), expected);
      const result = await this.call(
        (o) => api.writeWorkspaceFile(agentId, rel, bytes, o),
        bytes.length,
        headers,
      );
      if (!result.ok && result.error.status === 412) throw new RemoteMoved(path);
      unwrap(result, `Uploading ${path}`);
      return undefined; // the workspace keeps the bytes as sent (no second hash of them)
    }
    await this.checkConfig(path, expected);
    if (path === 'instructions.md') {
      await this.setPrompt(Buffer.from(bytes).toString('utf8'));
    } else if (path === 'mcp.json') {
      const servers = parseMcpFile(bytes);
      unwrap(await this.call((o) => api.setMcpServers(agentId, servers, o)), 'Updating the MCP servers');
    } else {
      await this.skills.send(path);
    }
    return this.configNow(path);
  }

  async remove(path: string, expected?: Expected): Promise<void> {
    const { api, agentId } = this.options;
    if (path.startsWith(workPrefix)) {
      const headers = await this.versions.conditionsFor(path.slice(workPrefix.length), expected);
      const rel = path.slice(workPrefix.length);
      const result = await this.call((o) => api.deleteWorkspaceFile(agentId, rel, o), 0, headers);
      if (!result.ok && result.error.status === 412) throw new RemoteMoved(path);
      if (!result.ok && result.error.status !== 404) unwrap(result, `Deleting ${path}`);
      return;
    }
    await this.checkConfig(path, expected);
    if (path === 'instructions.md') {
      await this.setPrompt('');
    } else if (path === 'mcp.json') {
      unwrap(await this.call((o) => api.setMcpServers(agentId, [], o)), 'Clearing the MCP servers');
    } else {
      await this.skills.send(path);
    }
  }

  /** The configuration has no conditional write: it is read again right before the write. */
  private async checkConfig(path: string, expected: Expected): Promise<void> {
    if (expected === undefined) return;
    await this.refreshConfig();
    if (!stillExpected(this.fingerprintOf(path), expected)) throw new RemoteMoved(path);
  }

  /** What the agent holds at `path` after a write, read back (the service stores mcp.json in its own form). */
  private async configNow(path: string): Promise<RemoteFingerprint | undefined> {
    await this.refreshConfig();
    return this.fingerprintOf(path);
  }

  private fingerprintOf(path: string): RemoteFingerprint | undefined {
    const bytes = this.config.get(path);
    return bytes && { size: bytes.length, sha256: hashBytes(bytes) };
  }

  private async refreshConfig(): Promise<void> {
    const { api, agentId } = this.options;
    const bundle = unwrap(
      await this.call((o) => api.getBundle(agentId, o), this.bundleBytes),
      "Reading the agent's configuration",
    );
    this.noteBundleSize(bundle.files);
    this.config = new Map(
      bundle.files
        .filter((file) => !file.path.startsWith('knowledge/'))
        .map((file) => [file.path, Buffer.from(file.contentBase64, 'base64')]),
    );
  }

  async flush(): Promise<void> {}

  /** One API call under its deadline (sized by the bytes it carries), so a stalled server is a retryable fault. */
  private call<T>(
    request: (options: CallOptions) => Promise<ApiResult<T>>,
    bytes = 0,
    headers?: Record<string, string>,
  ): Promise<ApiResult<T>> {
    return withDeadline(request, { bytes, timing: this.options.deadline, ...(headers ? { headers } : {}) });
  }

  private noteBundleSize(files: readonly { contentBase64: string }[]): void {
    this.bundleBytes = files.reduce((sum, file) => sum + file.contentBase64.length, 0);
  }

  /** One read tells whether this server has the byte-download route (ours does; the spec lacks it). */
  private async probeByteRoute(path: string): Promise<void> {
    this.probed = true;
    const { api, agentId } = this.options;
    const result = await this.call((o) => api.readWorkspaceFile(agentId, path, o), this.sizes.get(path));
    if (result.ok && result.value.kind === 'listing') this.uploadOnly = true;
  }

  private async setPrompt(prompt: string): Promise<void> {
    const { api, agentId } = this.options;
    const result = await this.call((o) => api.updateAgentConfig(agentId, { prompt }, o), prompt.length);
    // 400 "nothing to change" means the agent already has this prompt.
    if (
      !result.ok &&
      result.error.status === 400 &&
      this.config.get('instructions.md')?.toString() === prompt
    )
      return;
    unwrap(result, 'Updating the instructions');
  }
}
