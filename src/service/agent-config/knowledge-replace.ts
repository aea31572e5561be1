import type { Stats } from 'node:fs';
import type { BundleEntry } from './bundle';
import type { WorkspaceFiles } from './workspace-files';

/**
 * A posted bundle's `knowledge/` takes the place of the old one file by file: first the old entries that
 * stand in the way (a file where the bundle needs a folder, a folder where it puts a file), then each new
 * file written over its old self (atomically), last the old files the bundle lacks removed. A service
 * killed anywhere in between leaves each file its old or its new content; deleting the folder first, as
 * this did before, left the knowledge gone until the bundle was posted again.
 */
export async function replaceKnowledge(
  knowledge: WorkspaceFiles,
  folderStat: Stats | null | undefined,
  entries: readonly BundleEntry[],
): Promise<void> {
  const folder = knowledge.parse('knowledge');
  if (folderStat && !folderStat.isDirectory()) await knowledge.delete(folder);
  const old = folderStat?.isDirectory() ? (await knowledge.list(folder)).files.map((f) => f.path) : [];
  const next = new Set(entries.map((e) => e.path));
  const leaving = old.filter((path) => !next.has(path));
  const inside = (parent: string, path: string) => path.startsWith(`${parent}/`);
  const inTheWay = leaving.filter((path) =>
    entries.some((e) => inside(path, e.path) || inside(e.path, path)),
  );
  for (const path of inTheWay) await knowledge.delete(knowledge.parse(path));
  for (const entry of entries) await knowledge.write(knowledge.parse(entry.path), entry.bytes);
  for (const path of leaving) {
    if (!inTheWay.includes(path)) await knowledge.delete(knowledge.parse(path));
  }
}
