import type { LibraryFile } from '../../shared/api';
import { libraryReadBytesMax } from '../../shared/bridge';

/** How the library's Open shows a file: fitted image, text, formatted Markdown, PDF pages, or no preview. */
export type PreviewKind = 'image' | 'text' | 'markdown' | 'pdf' | 'none';

/** Bytes read for a preview at most: above it the dialog says so and offers the download instead. */
export const previewBytesMax = libraryReadBytesMax;
/** Characters of a text file shown: a long log stays quick to open; the rest is one Download away. */
export const textShownMax = 1_000_000;
/** PDF pages drawn: enough to read, not a 900-page manual drawn into canvases. */
export const pdfPagesMax = 50;

/** Images the page draws itself; SVG only as an <img> from a blob URL, where its scripts never run. */
const imageTypes: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
};
const imageExtensions: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

const markdownTypes = new Set(['text/markdown', 'text/x-markdown']);
const markdownExtensions = new Set(['md', 'markdown']);

/** Media types outside text/* that are text all the same. */
const textTypes = new Set([
  'application/json',
  'application/ld+json',
  'application/xml',
  'application/javascript',
  'application/x-javascript',
  'application/typescript',
  'application/x-typescript',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-sh',
  'application/x-python',
  'application/sql',
  'application/x-ndjson',
]);
/** Text and code files by name, for a file the server typed as application/octet-stream. */
const textExtensions = new Set(
  (
    'txt text log csv tsv json jsonl ndjson ts tsx mts cts js jsx mjs cjs py pyi rb go rs java kt kts swift c h cc ' +
    'cpp hpp cs php lua r sql sh bash zsh fish ps1 bat yaml yml toml ini cfg conf env properties xml html htm css ' +
    'scss less vue svelte diff patch tex bib rst adoc org srt vtt gitignore dockerfile makefile'
  ).split(' '),
);

function mediaType(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase();
}

function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
  const dot = base.lastIndexOf('.');
  // "Makefile", "Dockerfile", ".gitignore": the whole name is the kind.
  return dot <= 0 ? base.replace(/^\./, '') : base.slice(dot + 1);
}

/** How a file is previewed, by its media type first and by its name's extension when the type says little. */
export function previewKindOf(file: Pick<LibraryFile, 'name' | 'mimeType'>): PreviewKind {
  const type = mediaType(file.mimeType);
  const extension = extensionOf(file.name);
  if (imageTypes[type]) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (markdownTypes.has(type)) return 'markdown';
  if (type.startsWith('text/') || textTypes.has(type) || /\+(json|xml)$/.test(type))
    return markdownExtensions.has(extension) ? 'markdown' : 'text';
  // Another image, audio or video type: the name does not make it something else.
  if (/^(image|audio|video)\//.test(type)) return 'none';
  if (imageExtensions[extension]) return 'image';
  if (extension === 'pdf') return 'pdf';
  if (markdownExtensions.has(extension)) return 'markdown';
  if (textExtensions.has(extension)) return 'text';
  return 'none';
}

/** The type an image's blob is made with, so the <img> decodes it (an SVG must be image/svg+xml). */
export function imageTypeOf(file: Pick<LibraryFile, 'name' | 'mimeType'>): string {
  const type = mediaType(file.mimeType);
  return imageTypes[type] ? type : (imageExtensions[extensionOf(file.name)] ?? 'application/octet-stream');
}

/** What the dialog shows for a file before reading it: its kind, or that it is too large to preview. */
export function previewPlan(file: Pick<LibraryFile, 'name' | 'mimeType' | 'size'>): {
  kind: PreviewKind;
  tooLarge: boolean;
} {
  const kind = previewKindOf(file);
  return { kind, tooLarge: kind !== 'none' && file.size > previewBytesMax };
}

/** A NUL byte near the start: a binary file with a text-like name, shown as "no preview", not as noise. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** A text file's bytes as text (UTF-8, a byte order mark dropped), cut at `textShownMax` characters. */
export function previewText(bytes: Uint8Array): { text: string; cut: boolean } {
  const text = new TextDecoder('utf-8').decode(bytes.subarray(0, textShownMax * 4));
  return text.length > textShownMax
    ? { text: text.slice(0, textShownMax), cut: true }
    : { text, cut: bytes.byteLength > textShownMax * 4 };
}
