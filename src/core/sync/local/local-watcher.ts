/**
 * The local watcher is a hint, never the truth: it tells the engine which paths may have changed,
 * debounced into one batch (the engine plans those paths alone, or rescans when it cannot tell).
 * Events for files the engine itself just wrote (matching the recorded fingerprint) are dropped,
 * so downloads do not echo back as uploads.
 */
import { hashFile } from './file-hash';
import { watchFolders } from './folder-watch';
import type { Fingerprint } from '../plan/sync-planner';
import { ignoreFileName, isAlwaysIgnored, pathKey, rootMarkerName } from '../plan/sync-paths';

export interface LocalWatcher {
  /** Resolves once the initial crawl is done and changes are being seen. */
  ready: Promise<void>;
  /** Records an upcoming write by the engine itself. */
  expectWrite(path: string, fingerprint: Fingerprint): void;
  close(): Promise<void>;
}

export interface WatcherOptions {
  root: string;
  debounceMs: number;
  /**
   * Called once per quiet period after real (non-echo) changes, with the paths named (relative,
   * each once); without paths after a watcher error: anything may have changed, rescan all.
   */
  onChange: (paths?: string[]) => void;
  /** Watcher errors lead to a full rescan, through the same callback. */
  onError?: (error: Error) => void;
}

export function watchLocal(options: WatcherOptions): LocalWatcher {
  const expected = new Map<string, Fingerprint>();
  let timer: NodeJS.Timeout | undefined;
  let pending: string[] = [];

  const folders = watchFolders({
    root: options.root,
    skip: isAlwaysIgnored,
    onEvent: (rel) => onEvent(rel),
    onError: (error) => {
      options.onError?.(error);
      options.onChange();
    },
  });

  const flush = async () => {
    timer = undefined;
    const paths = [...new Set(pending)];
    pending = [];
    const real: string[] = [];
    for (const path of paths) if (!(await isEcho(path))) real.push(path);
    if (real.length > 0) options.onChange(real);
  };

  const isEcho = async (path: string): Promise<boolean> => {
    const fingerprint = expected.get(pathKey(path));
    if (!fingerprint) return false;
    const actual = await hashFile(`${options.root}/${path}`).catch(() => undefined);
    if (actual && actual.size === fingerprint.size && actual.sha256 === fingerprint.sha256) {
      expected.delete(pathKey(path));
      return true;
    }
    return false;
  };

  const onEvent = (rel: string) => {
    // The marker and the ignore rules are never synced, but a change to either is news.
    if (isAlwaysIgnored(rel) && rel !== rootMarkerName && rel !== ignoreFileName) return;
    pending.push(rel);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void flush(), options.debounceMs);
  };

  return {
    ready: folders.ready,
    expectWrite(path, fingerprint) {
      expected.set(pathKey(path), fingerprint);
    },
    async close() {
      if (timer) clearTimeout(timer);
      folders.close();
    },
  };
}
