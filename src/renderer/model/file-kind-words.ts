import type { LibraryFile } from '../../shared/api';

/** Kinds a person knows by name; the MIME type (`text/markdown`) is the wire's word, kept for the tooltip. */
const knownKinds: Record<string, string> = {
  'application/pdf': 'PDF document',
  'application/json': 'JSON data',
  'application/zip': 'ZIP archive',
  'application/msword': 'Word document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document',
  'application/vnd.ms-excel': 'Excel spreadsheet',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel spreadsheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint presentation',
  'application/vnd.oasis.opendocument.text': 'OpenDocument text',
  'text/plain': 'Plain text',
  'text/markdown': 'Markdown text',
  'text/csv': 'CSV table',
  'text/html': 'Web page',
  'image/svg+xml': 'SVG image',
};

const families: Record<string, string> = { image: 'image', audio: 'audio', video: 'video', text: 'text' };

/** A name's extension in capitals (up to 5 letters), or '' when it has none. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1, dot + 6).toUpperCase() : '';
}

/** What a library file is, in words: "Markdown text", "PNG image", else "<EXT> file". */
export function fileKindWords(file: Pick<LibraryFile, 'name' | 'mimeType'>): string {
  const mime = (file.mimeType.split(';')[0] ?? '').trim().toLowerCase();
  const known = knownKinds[mime];
  if (known) return known;
  const [family, subtype = ''] = mime.split('/');
  const extension = fileExtension(file.name);
  const familyWord = families[family ?? ''];
  if (familyWord) {
    // An image with no extension is named by its subtype ("PNG image"); "x-" is a private prefix.
    const name = extension || subtype.replace(/^x-/, '').toUpperCase().slice(0, 8);
    return name ? `${name} ${familyWord}` : familyWord[0]!.toUpperCase() + familyWord.slice(1);
  }
  return extension ? `${extension} file` : 'File';
}
