/**
 * Files of a picked or dropped folder, each with its path inside the folder (`name/sub/file`).
 * A picker with `webkitdirectory` gives `webkitRelativePath`; a drop gives entries to walk.
 */
export interface FolderFile {
  path: string;
  file: File;
}

export function filesFromPicker(list: FileList | null): FolderFile[] {
  return [...(list ?? [])].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

export async function filesFromDrop(items: DataTransferItemList): Promise<FolderFile[]> {
  const entries = [...items].map((item) => item.webkitGetAsEntry()).filter((e): e is FileSystemEntry => !!e);
  const out: FolderFile[] = [];
  for (const entry of entries) await walk(entry, entry.name, out);
  return out;
}

async function walk(entry: FileSystemEntry, path: string, out: FolderFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    out.push({ path, file });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, `${path}/${child.name}`, out);
  }
}

/** A file's bytes as base64, for the bridge. */
export async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
