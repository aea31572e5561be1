import type { LibraryFile } from '../../shared/api';
import { fileExtension, fileKindWords } from './file-kind-words';

export type LibrarySort = 'name' | 'size' | 'type' | 'recent';

/** The library as shown: files whose name or type contain the query, in the chosen order. */
export function visibleFiles(files: readonly LibraryFile[], query: string, sort: LibrarySort): LibraryFile[] {
  const needle = query.trim().toLowerCase();
  const matching = needle
    ? files.filter(
        (file) =>
          file.name.toLowerCase().includes(needle) ||
          file.mimeType.toLowerCase().includes(needle) ||
          fileKindWords(file).toLowerCase().includes(needle),
      )
    : [...files];
  // The API lists newest first; "recent" keeps its order.
  if (sort === 'recent') return matching;
  const byName = (a: LibraryFile, b: LibraryFile) =>
    a.name.localeCompare(b.name, undefined, { numeric: true });
  const compare: Record<Exclude<LibrarySort, 'recent'>, (a: LibraryFile, b: LibraryFile) => number> = {
    name: byName,
    size: (a, b) => b.size - a.size || byName(a, b),
    type: (a, b) => typeLabel(a).localeCompare(typeLabel(b)) || byName(a, b),
  };
  return matching.sort(compare[sort]);
}

/** A short, readable type: the extension in capitals, else the MIME subtype. */
export function typeLabel(file: Pick<LibraryFile, 'name' | 'mimeType'>): string {
  const extension = fileExtension(file.name);
  if (extension) return extension;
  const subtype = file.mimeType.split(';')[0]?.split('/')[1] ?? '';
  return subtype ? subtype.toUpperCase().slice(0, 8) : 'FILE';
}

/** Bytes as people read them: 900 B, 12.3 KB, 4.5 MB. */
export function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
