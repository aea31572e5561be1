/**
 * The workspace listing (a flat list of `{path, size}`, every file under the root) as a tree of
 * folders with their total sizes, folders first, then files, each by name. Pure.
 */
export interface FileNode {
  kind: 'file';
  name: string;
  path: string;
  size: number;
}
export interface FolderNode {
  kind: 'folder';
  name: string;
  path: string;
  size: number;
  children: TreeNode[];
}
export type TreeNode = FileNode | FolderNode;

export function buildFileTree(files: readonly { path: string; size: number }[]): FolderNode {
  const root: FolderNode = { kind: 'folder', name: '', path: '', size: 0, children: [] };
  for (const file of files) {
    const parts = file.path.split('/').filter(Boolean);
    let folder = root;
    folder.size += file.size;
    parts.slice(0, -1).forEach((part, i) => {
      const path = parts.slice(0, i + 1).join('/');
      let next = folder.children.find((c): c is FolderNode => c.kind === 'folder' && c.name === part);
      if (!next) {
        next = { kind: 'folder', name: part, path, size: 0, children: [] };
        folder.children.push(next);
      }
      next.size += file.size;
      folder = next;
    });
    folder.children.push({ kind: 'file', name: parts.at(-1) ?? file.path, path: file.path, size: file.size });
  }
  sortTree(root);
  return root;
}

function sortTree(folder: FolderNode): void {
  folder.children.sort((a, b) =>
    a.kind !== b.kind ? (a.kind === 'folder' ? -1 : 1) : a.name.localeCompare(b.name),
  );
  for (const child of folder.children) if (child.kind === 'folder') sortTree(child);
}

/** Files over the per-file cap, named, so nothing is sent when one would be refused. */
export function oversizeFiles(files: readonly { name: string; size: number }[], maxBytes: number): string[] {
  return files.filter((f) => f.size > maxBytes).map((f) => f.name);
}
