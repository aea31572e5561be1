/**
 * The remote side of a machine agent (`storage: box`), in the folder layout:
 *   instructions.md ↔ the agent's prompt        mcp.json ↔ GET/PUT /mcp
 *   skills/<slug>/… ↔ PUT/DELETE /skills/{slug}  work/**   ↔ /files/{path}
 * The prompt, MCP list and skill contents are read from one GET /bundle per listing.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { McpPutBody } from '../../shared/api';
import type { ApiClient } from '../api/api-client';
import { unwrap } from './api-remote-error';
import { hashBytes } from './file-hash';
import { WorkspaceVersions } from './workspace-versions';
import {
  RemoteError,
  RemoteMoved,
  inLayout,
  stillExpected,
  type Expected,
  type RemoteSide,
} from './remote-side';
import type { RemoteEntry, RemoteFingerprint } from './sync-plan-types';
import { isAlwaysIgnored } from './sync-paths';

const workPrefix = 'work/';
const skillPath = /^skills\/([^/]+)\/(.+)$/;

export interface BoxRemoteOptions {
  api: ApiClient;
  agentId: string;
  /** The local sync root: a skill is always sent whole, read from here. */
  root: string;
}

export class BoxRemote implements RemoteSide {
  /** The configuration files always list (instructions.md, mcp.json); the workspace lists on its own. */
  readonly listedGroups = ['', workPrefix];
  /** Bytes of the non-workspace files, from the latest listing. */
  private config = new Map<string, Uint8Array>();
  private uploadOnly = false;
  private probed = false;
  /** Per skill: the last content sent this cycle, and the send in flight, so a skill goes out once. */
  private sentSkills = new Map<string, string>();
  private skillSends = new Map<string, Promise<void>>();

  /** The workspace's versions: conditional writes and the cheap poll. */
  private readonly versions: WorkspaceVersions;

  constructor(private readonly options: BoxRemoteOptions) {
    this.versions = new WorkspaceVersions(options.api, options.agentId);
  }

  get limitation(): string | undefined {
    return this.uploadOnly
      ? "This server can't send workspace files back, so work/ only uploads: changes the agent makes there are not downloaded."
      : undefined;
  }

  async list(): Promise<RemoteEntry[]> {
    const { api, agentId } = this.options;
    const [bundle, listing] = await Promise.all([
      api.getBundle(agentId).then((r) => unwrap(r, "Reading the agent's configuration")),
      api.listWorkspace(agentId, '').then((r) => unwrap(r, "Listing the agent's workspace")),
    ]);
    this.config = new Map();
    this.sentSkills = new Map();
    const entries: RemoteEntry[] = [];
    for (const file of bundle.files) {
      // Knowledge of a machine agent lives in its workspace, and is synced there as work/knowledge/.
      if (file.path.startsWith('knowledge/')) continue;
      const bytes = Buffer.from(file.contentBase64, 'base64');
      this.config.set(file.path, bytes);
      entries.push({ path: file.path, size: bytes.length, sha256: hashBytes(bytes) });
    }
    await this.versions.sawListing(listing.files);
    for (const file of listing.files) {
      const { sha256, etag } = file as { sha256?: unknown; etag?: unknown };
      entries.push({
        path: workPrefix + file.path,
        size: file.size,
        ...(typeof sha256 === 'string' ? { sha256 } : {}),
        ...(typeof etag === 'string' ? { etag } : {}),
      });
    }
    if (!this.probed && listing.files.length > 0) {
      // The smallest file makes the cheapest probe (a large one would delay the first sync).
      const smallest = listing.files.reduce((a, b) => (b.size < a.size ? b : a));
      await this.probeByteRoute(smallest.path);
    }
    return entries;
  }

  accepts(path: string): boolean {
    return inLayout(path, 'box');
  }

  hasChanged(): Promise<boolean> {
    return this.versions.hasChanged();
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
    const result = unwrap(
      await this.options.api.readWorkspaceFile(this.options.agentId, path.slice(workPrefix.length)),
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
      const result = await api.writeWorkspaceFile(agentId, rel, bytes, { headers });
      if (!result.ok && result.error.status === 412) throw new RemoteMoved(path);
      unwrap(result, `Uploading ${path}`);
      return { size: bytes.length, sha256: hashBytes(bytes) };
    }
    await this.checkConfig(path, expected);
    if (path === 'instructions.md') {
      await this.setPrompt(Buffer.from(bytes).toString('utf8'));
    } else if (path === 'mcp.json') {
      unwrap(await api.setMcpServers(agentId, parseMcpFile(bytes)), 'Updating the MCP servers');
    } else {
      await this.sendSkill(path);
    }
    return this.configNow(path);
  }

  async remove(path: string, expected?: Expected): Promise<void> {
    const { api, agentId } = this.options;
    if (path.startsWith(workPrefix)) {
      const headers = await this.versions.conditionsFor(path.slice(workPrefix.length), expected);
      const result = await api.deleteWorkspaceFile(agentId, path.slice(workPrefix.length), { headers });
      if (!result.ok && result.error.status === 412) throw new RemoteMoved(path);
      if (!result.ok && result.error.status !== 404) unwrap(result, `Deleting ${path}`);
      return;
    }
    await this.checkConfig(path, expected);
    if (path === 'instructions.md') {
      await this.setPrompt('');
    } else if (path === 'mcp.json') {
      unwrap(await api.setMcpServers(agentId, []), 'Clearing the MCP servers');
    } else {
      await this.sendSkill(path);
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
    const bundle = unwrap(await api.getBundle(agentId), "Reading the agent's configuration");
    this.config = new Map(
      bundle.files
        .filter((file) => !file.path.startsWith('knowledge/'))
        .map((file) => [file.path, Buffer.from(file.contentBase64, 'base64')]),
    );
  }

  async flush(): Promise<void> {}

  /** One read tells whether this server has the byte-download route (ours does; the spec lacks it). */
  private async probeByteRoute(path: string): Promise<void> {
    this.probed = true;
    const result = await this.options.api.readWorkspaceFile(this.options.agentId, path);
    if (result.ok && result.value.kind === 'listing') this.uploadOnly = true;
  }

  private async setPrompt(prompt: string): Promise<void> {
    const result = await this.options.api.updateAgentConfig(this.options.agentId, { prompt });
    // 400 "nothing to change" means the agent already has this prompt.
    if (
      !result.ok &&
      result.error.status === 400 &&
      this.config.get('instructions.md')?.toString() === prompt
    )
      return;
    unwrap(result, 'Updating the instructions');
  }

  /**
   * Sends a skill whole from the local folder, or deletes it when its folder is gone. Several files
   * of one skill changing in one cycle send it once: calls for a slug run one after another, and a
   * call that finds the content already sent does nothing.
   */
  private sendSkill(path: string): Promise<void> {
    const match = skillPath.exec(path);
    if (!match) {
      return Promise.reject(
        new RemoteError(`${path} is not part of a skill folder (skills/<name>/…).`, 400, undefined, true),
      );
    }
    const slug = match[1]!;
    const previous = this.skillSends.get(slug) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.sendSkillNow(slug));
    this.skillSends.set(slug, next);
    return next;
  }

  private async sendSkillNow(slug: string): Promise<void> {
    const { api, agentId, root } = this.options;
    const files = await readSkillFolder(join(root, 'skills', slug), `skills/${slug}`);
    const markdown = files.get('SKILL.md');
    const digest =
      markdown === undefined
        ? 'deleted'
        : hashBytes(Buffer.from(JSON.stringify([...files].map(([n, b]) => [n, hashBytes(b)]))));
    if (this.sentSkills.get(slug) === digest) return;
    if (markdown === undefined) {
      const result = await api.deleteSkill(agentId, slug);
      if (!result.ok && result.error.status !== 404) unwrap(result, `Removing the skill ${slug}`);
    } else {
      const assets = [...files]
        .filter(([name]) => name !== 'SKILL.md')
        .map(([name, bytes]) => ({ name, contentBase64: Buffer.from(bytes).toString('base64') }));
      unwrap(
        await api.installSkill(agentId, slug, { markdown: Buffer.from(markdown).toString('utf8'), assets }),
        `skills/${slug}/SKILL.md`,
      );
    }
    this.sentSkills.set(slug, digest);
  }
}

/** Validates mcp.json before upload, naming what is wrong in plain words. */
export function parseMcpFile(bytes: Uint8Array) {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (error) {
    throw invalidMcp(`it is not valid JSON (${(error as Error).message})`);
  }
  const parsed = McpPutBody.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidMcp(`${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data.servers;
}

function invalidMcp(why: string): RemoteError {
  return new RemoteError(
    `mcp.json was not uploaded because ${why}. The agent keeps its previous MCP servers.`,
    400,
    undefined,
    true,
  );
}

/** A skill's files by name relative to its folder, leaving out what sync never sends. */
async function readSkillFolder(dir: string, syncPath: string, prefix = ''): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  const entries = await readdir(join(dir, prefix), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (isAlwaysIgnored(`${syncPath}/${name}`)) continue;
    if (entry.isDirectory()) for (const [n, b] of await readSkillFolder(dir, syncPath, name)) files.set(n, b);
    else if (entry.isFile()) files.set(name, await readFile(join(dir, name)));
  }
  return files;
}
