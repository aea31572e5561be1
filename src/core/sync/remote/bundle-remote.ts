/**
 * The remote side of a bundle agent (`storage: bundle`): read with GET /bundle
 * and written with POST /bundle carrying the WHOLE merged bundle, so the result
 * is right whether the server merges or replaces. Writes that arrive together
 * are sent in one POST; each write resolves only once that POST is confirmed.
 */
import type { ApiClient } from '../../api/api-client';
import { unwrap } from './api-remote-error';
import { parseMcpFile } from './mcp-file';
import { BundleVersion } from './bundle-version';
import { hashBytes } from '../local/file-hash';
import { withDeadline, type DeadlineTiming } from './request-deadline';
import {
  RemoteError,
  RemoteMoved,
  inLayout,
  stillExpected,
  type Expected,
  type RemoteSide,
} from '../plan/remote-side';
import type { RemoteEntry, RemoteFingerprint } from '../plan/sync-plan-types';

interface Pending {
  path: string;
  bytes: Uint8Array | null;
  expected: Expected;
  resolve: (now: RemoteFingerprint | undefined) => void;
  reject: (error: unknown) => void;
}

export class BundleRemote implements RemoteSide {
  readonly limitation = undefined;
  readonly listedGroups = [''];
  /** The bundle as last listed, with our own confirmed writes applied. */
  private files = new Map<string, Uint8Array>();
  private waiting: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The bundle's version as last listed, for the cheap poll. */
  private readonly version = new BundleVersion((headers) => this.getBundle(headers));

  constructor(
    private readonly api: ApiClient,
    private readonly agentId: string,
    /** How long writes gather before one POST. */
    private readonly gatherMs = 15,
    /** Every request's deadline (default: request-deadline.ts). */
    private readonly deadline?: DeadlineTiming,
  ) {}

  async list(): Promise<RemoteEntry[]> {
    const bundle = unwrap(await this.getBundle(), "Reading the agent's bundle");
    // Only a listing moves the known version: a change the engine's own re-reads see is still news.
    this.version.saw(bundle.files);
    this.files = filesOf(bundle.files);
    return [...this.files].map(([path, bytes]) => ({ path, size: bytes.length, sha256: hashBytes(bytes) }));
  }

  hasChanged(): Promise<boolean> {
    return this.version.hasChanged();
  }

  get serverUrl(): string {
    return this.api.baseUrl;
  }

  canRead(): boolean {
    return true;
  }

  accepts(path: string): boolean {
    return inLayout(path, 'bundle');
  }

  async read(path: string): Promise<Uint8Array> {
    const bytes = this.files.get(path);
    if (!bytes) throw new RemoteError(`${path} is no longer in the bundle.`, 404, undefined, true);
    return bytes;
  }

  async write(path: string, bytes: Uint8Array, expected?: Expected): Promise<RemoteFingerprint | undefined> {
    if (path === 'mcp.json') parseMcpFile(bytes); // refuse an invalid list before anything is sent
    return this.enqueue(path, bytes, expected);
  }

  async remove(path: string, expected?: Expected): Promise<void> {
    await this.enqueue(path, null, expected);
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    if (this.waiting.length > 0) await this.send();
  }

  private enqueue(path: string, bytes: Uint8Array | null, expected: Expected) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.send().catch(() => undefined), this.gatherMs);
    return new Promise<RemoteFingerprint | undefined>((resolve, reject) =>
      this.waiting.push({ path, bytes, expected, resolve, reject }),
    );
  }

  /**
   * One POST of the whole bundle. It is read again right before (the API has no conditional
   * write): a change whose file moved on the agent's side is refused, and the others are merged
   * onto what the agent holds now, so an edit the agent made elsewhere meanwhile is kept.
   */
  private async send(): Promise<void> {
    this.timer = undefined;
    const waiting = this.waiting;
    this.waiting = [];
    try {
      const fresh = await this.readBundle();
      const merged = new Map(fresh);
      const going: Pending[] = [];
      for (const change of waiting) {
        const bytes = fresh.get(change.path);
        const current = bytes && { size: bytes.length, sha256: hashBytes(bytes) };
        if (!stillExpected(current, change.expected)) {
          change.reject(new RemoteMoved(change.path));
          continue;
        }
        if (change.bytes === null) merged.delete(change.path);
        else merged.set(change.path, change.bytes);
        going.push(change);
      }
      if (going.length === 0) return;
      const body = {
        layout: 'dir' as const,
        files: [...merged].map(([path, bytes]) => ({
          path,
          contentBase64: Buffer.from(bytes).toString('base64'),
        })),
      };
      const size = body.files.reduce((sum, file) => sum + file.contentBase64.length, 0);
      unwrap(
        await withDeadline((o) => this.api.applyBundle(this.agentId, body, o), {
          bytes: size,
          timing: this.deadline,
        }),
        'Saving the bundle',
      );
      // Read back: the server may keep a file in its own form, and that form is the new base.
      this.files = await this.readBundle().catch(() => merged);
      for (const change of going) {
        const bytes = this.files.get(change.path);
        change.resolve(bytes && { size: bytes.length, sha256: hashBytes(bytes) });
      }
    } catch (error) {
      for (const entry of waiting) entry.reject(error);
      throw error;
    }
  }

  private async readBundle(): Promise<Map<string, Uint8Array>> {
    return filesOf(unwrap(await this.getBundle(), "Reading the agent's bundle").files);
  }

  /** GET /bundle under its deadline (sized by the bundle as last read), conditionally when given headers. */
  private getBundle(headers?: Record<string, string>) {
    const bytes = [...this.files.values()].reduce((sum, file) => sum + file.length, 0);
    return withDeadline((o) => this.api.getBundle(this.agentId, o), {
      bytes,
      timing: this.deadline,
      ...(headers ? { headers } : {}),
    });
  }
}

function filesOf(files: readonly { path: string; contentBase64: string }[]): Map<string, Uint8Array> {
  return new Map(files.map((file) => [file.path, Buffer.from(file.contentBase64, 'base64')]));
}
