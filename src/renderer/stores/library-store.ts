import { create } from 'zustand';
import type { LibraryFile } from '../../shared/api';
import { LIMITS } from '../../shared/api/limits';
import { desk } from '../desk';
import { errorWords } from '../error-words';
import { readFiles } from '../ui/read-files';
import type { LibrarySort } from '../model/library-view';
import { needsRenewal, signedUrlExpiry } from '../model/signed-url';
import { changesWhileListing, overlay } from './changes-while-listing';

/** One upload as the screen shows it. `sent` and `total` are bytes; `sent` moves when the host reports it. */
export interface LibraryUpload {
  id: string;
  name: string;
  total: number;
  sent: number;
  status: 'uploading' | 'done' | 'failed' | 'cancelled';
  error?: string;
  /** The library file a finished upload became: its row leaves with that file. */
  fileId?: string;
}

interface LinkState {
  url: string;
  expiresAt: number;
}

interface LibraryStore {
  files: LibraryFile[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string;
  query: string;
  sort: LibrarySort;
  uploads: LibraryUpload[];
  links: Record<string, LinkState>;
  load(): Promise<void>;
  setQuery(query: string): void;
  setSort(sort: LibrarySort): void;
  /** Uploads several files at once; ones over the cap are refused here with a plain reason. */
  upload(files: readonly File[]): Promise<void>;
  cancelUpload(uploadId: string): Promise<void>;
  dismissUpload(uploadId: string): void;
  remove(fileId: string): Promise<string>;
  /** A working link for a file, renewed through `GET /me/files/{id}` when it is near expiry. */
  link(fileId: string): Promise<{ url: string } | { error: string }>;
  reset(): void;
}

const MAX_BYTES = LIMITS.workspaceFileBytesMax;

export const useLibraryStore = create<LibraryStore>((set, get) => {
  /** An upload or delete answered while a listing is on its way stands over that listing. */
  const meanwhile = changesWhileListing<LibraryFile>();
  const patchUpload = (id: string, patch: Partial<LibraryUpload>) =>
    set({ uploads: get().uploads.map((u) => (u.id === id ? { ...u, ...patch } : u)) });

  const remember = (file: LibraryFile, receivedAt = Date.now()) => {
    set({
      links: {
        ...get().links,
        [file.id]: { url: file.url, expiresAt: signedUrlExpiry(file.url, receivedAt) },
      },
    });
  };

  const uploadOne = async (file: File) => {
    const id = crypto.randomUUID();
    const entry: LibraryUpload = {
      id,
      name: file.name || 'pasted-file',
      total: file.size,
      sent: 0,
      status: 'uploading',
    };
    if (file.size > MAX_BYTES) {
      set({
        uploads: [
          ...get().uploads,
          { ...entry, status: 'failed', error: `${entry.name} is over the library's 10 MB limit.` },
        ],
      });
      return;
    }
    set({ uploads: [...get().uploads, entry] });
    const [read] = await readFiles([file]);
    const result = await desk().uploadFile({
      name: entry.name,
      mimeType: file.type || 'application/octet-stream',
      dataBase64: read?.data ?? '',
      uploadId: id,
    });
    if (get().uploads.find((u) => u.id === id)?.status === 'cancelled') return;
    if (!result.ok) {
      if (result.error.code === 'cancelled') return patchUpload(id, { status: 'cancelled' });
      return patchUpload(id, { status: 'failed', error: uploadProblem(entry.name, result.error) });
    }
    remember(result.value);
    meanwhile.added('', result.value);
    patchUpload(id, { status: 'done', sent: entry.total, fileId: result.value.id });
    set({ files: [result.value, ...get().files.filter((f) => f.id !== result.value.id)] });
  };

  return {
    files: [],
    status: 'idle',
    error: '',
    query: '',
    sort: 'recent',
    uploads: [],
    links: {},
    async load() {
      set({ status: get().files.length ? 'ready' : 'loading', error: '' });
      const receivedAt = Date.now();
      const [result, since] = await meanwhile.list('', () => desk().listFiles());
      if (!result.ok) return set({ status: 'error', error: errorWords(result.error) });
      // A slow host answers after an upload or delete done meanwhile: the listing was read before it.
      const files = overlay(result.value, since, 'ours');
      const listed = new Set(files.map((f) => f.id));
      set({
        files,
        status: 'ready',
        uploads: get().uploads.filter((u) => !u.fileId || listed.has(u.fileId)),
      });
      for (const file of files) if (!since.added.has(file.id)) remember(file, receivedAt);
    },
    setQuery(query) {
      set({ query });
    },
    setSort(sort) {
      set({ sort });
    },
    async upload(files) {
      await Promise.all(files.map(uploadOne));
    },
    async cancelUpload(uploadId) {
      patchUpload(uploadId, { status: 'cancelled' });
      await desk().cancelUpload(uploadId);
    },
    dismissUpload(uploadId) {
      set({ uploads: get().uploads.filter((u) => u.id !== uploadId) });
    },
    async remove(fileId) {
      const result = await desk().deleteFile(fileId);
      if (!result.ok) return errorWords(result.error);
      meanwhile.removed('', fileId);
      const { [fileId]: _gone, ...links } = get().links;
      set({
        files: get().files.filter((f) => f.id !== fileId),
        uploads: get().uploads.filter((u) => u.fileId !== fileId),
        links,
      });
      return '';
    },
    async link(fileId) {
      const known = get().links[fileId];
      if (known && !needsRenewal(known.expiresAt, Date.now())) return { url: known.url };
      const receivedAt = Date.now();
      const result = await desk().getFileUrl(fileId);
      if (!result.ok) return { error: errorWords(result.error) };
      set({
        links: {
          ...get().links,
          [fileId]: { url: result.value.url, expiresAt: signedUrlExpiry(result.value.url, receivedAt) },
        },
      });
      return { url: result.value.url };
    },
    reset() {
      set({ files: [], status: 'idle', error: '', uploads: [], links: {} });
    },
  };
});

/** The host's progress reports move the bars; returns the unsubscribe. */
export function followUploadProgress(): () => void {
  return desk().onUploadProgress(({ uploadId, sent, total }) => {
    const store = useLibraryStore.getState();
    if (!store.uploads.some((u) => u.id === uploadId && u.status === 'uploading')) return;
    useLibraryStore.setState({
      uploads: store.uploads.map((u) => (u.id === uploadId ? { ...u, sent, total } : u)),
    });
  });
}

function uploadProblem(name: string, error: { code: string; status?: number; message: string }): string {
  if (error.status === 413) return `${name} is over the library's 10 MB limit.`;
  if (error.status === 400) return `${name} was refused: ${error.message}`;
  return `${name} did not upload: ${errorWords(error)}`;
}
