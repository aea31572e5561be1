/**
 * The remote side of a bundle agent (`storage: bundle`): read with GET /bundle
 * and written with POST /bundle carrying the WHOLE merged bundle, so the result
 * is right whether the server merges or replaces. Writes that arrive together
 * are sent in one POST; each write resolves only once that POST is confirmed.
 */
import type { ApiClient } from '../api/api-client';
import { unwrap } from './api-remote-error';
import { parseMcpFile } from './box-remote';
import { hashBytes } from './file-hash';
import { RemoteError, type RemoteSide } from './remote-side';
import type { RemoteEntry } from './sync-planner';

interface Pending {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class BundleRemote implements RemoteSide {
  readonly limitation = undefined;
  readonly listedGroups = [''];
  /** The bundle as last listed, with our own confirmed writes applied. */
  private files = new Map<string, Uint8Array>();
  private changes = new Map<string, Uint8Array | null>();
  private waiting: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly api: ApiClient,
    private readonly agentId: string,
    /** How long writes gather before one POST. */
    private readonly gatherMs = 15,
  ) {}

  async list(): Promise<RemoteEntry[]> {
    const bundle = unwrap(await this.api.getBundle(this.agentId), "Reading the agent's bundle");
    this.files = new Map(bundle.files.map((file) => [file.path, Buffer.from(file.contentBase64, 'base64')]));
    return [...this.files].map(([path, bytes]) => ({ path, size: bytes.length, sha256: hashBytes(bytes) }));
  }

  canRead(): boolean {
    return true;
  }

  async read(path: string): Promise<Uint8Array> {
    const bytes = this.files.get(path);
    if (!bytes) throw new RemoteError(`${path} is no longer in the bundle.`, 404, undefined, true);
    return bytes;
  }

  write(path: string, bytes: Uint8Array): Promise<void> {
    if (path === 'mcp.json') parseMcpFile(bytes); // refuse an invalid list before anything is sent
    return this.enqueue(path, bytes);
  }

  remove(path: string): Promise<void> {
    return this.enqueue(path, null);
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    if (this.changes.size > 0) await this.send();
  }

  private enqueue(path: string, bytes: Uint8Array | null): Promise<void> {
    this.changes.set(path, bytes);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.send().catch(() => undefined), this.gatherMs);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private async send(): Promise<void> {
    this.timer = undefined;
    const changes = this.changes;
    const waiting = this.waiting;
    this.changes = new Map();
    this.waiting = [];
    const merged = new Map(this.files);
    for (const [path, bytes] of changes) {
      if (bytes === null) merged.delete(path);
      else merged.set(path, bytes);
    }
    const body = {
      layout: 'dir' as const,
      files: [...merged].map(([path, bytes]) => ({
        path,
        contentBase64: Buffer.from(bytes).toString('base64'),
      })),
    };
    try {
      unwrap(await this.api.applyBundle(this.agentId, body), 'Saving the bundle');
      this.files = merged;
      for (const entry of waiting) entry.resolve();
    } catch (error) {
      for (const entry of waiting) entry.reject(error);
      throw error;
    }
  }
}
