import { describe, expect, it } from 'vitest';
import {
  imageTypeOf,
  looksBinary,
  previewBytesMax,
  previewKindOf,
  previewPlan,
  previewText,
  textShownMax,
} from '../../../src/renderer/model/file-preview';

const kind = (name: string, mimeType: string) => previewKindOf({ name, mimeType });

describe('how the library previews a file', () => {
  it('chooses by media type first, parameters and case aside', () => {
    expect(kind('a', 'image/png')).toBe('image');
    expect(kind('a', 'IMAGE/JPEG')).toBe('image');
    expect(kind('a', 'image/gif')).toBe('image');
    expect(kind('a', 'image/webp')).toBe('image');
    expect(kind('a', 'image/svg+xml')).toBe('image');
    expect(kind('a', 'application/pdf')).toBe('pdf');
    expect(kind('a', 'text/markdown; charset=utf-8')).toBe('markdown');
    expect(kind('a', 'text/plain;charset=utf-8')).toBe('text');
    expect(kind('a', 'text/csv')).toBe('text');
    expect(kind('a', 'application/json')).toBe('text');
    expect(kind('a', 'application/vnd.api+json')).toBe('text');
    expect(kind('a', 'application/atom+xml')).toBe('text');
  });

  it('falls back on the extension when the type says little', () => {
    for (const name of [
      'notes.txt',
      'data.json',
      'main.ts',
      'app.tsx',
      'run.py',
      'rows.csv',
      'Makefile',
      '.gitignore',
    ])
      expect(kind(name, 'application/octet-stream'), name).toBe('text');
    expect(kind('README.md', 'application/octet-stream')).toBe('markdown');
    expect(kind('README.MD', '')).toBe('markdown');
    expect(kind('scan.PDF', 'application/octet-stream')).toBe('pdf');
    expect(kind('photo.JPG', 'application/octet-stream')).toBe('image');
    expect(kind('logo.svg', 'application/octet-stream')).toBe('image');
    // A text type with a Markdown name is Markdown.
    expect(kind('notes.md', 'text/plain')).toBe('markdown');
  });

  it('has no preview for other kinds, whatever the name pretends', () => {
    expect(kind('blob.bin', 'application/octet-stream')).toBe('none');
    expect(kind('archive.zip', 'application/zip')).toBe('none');
    expect(kind('plan.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe(
      'none',
    );
    expect(kind('photo.heic', 'image/heic')).toBe('none');
    expect(kind('song.mp3', 'audio/mpeg')).toBe('none');
    // The server's type wins over a misleading name.
    expect(kind('fake.png', 'video/mp4')).toBe('none');
    expect(kind('noextension', 'application/octet-stream')).toBe('none');
  });

  it('makes an image blob with a type the <img> decodes, SVG included', () => {
    expect(imageTypeOf({ name: 'logo.svg', mimeType: 'application/octet-stream' })).toBe('image/svg+xml');
    expect(imageTypeOf({ name: 'x', mimeType: 'image/png; q=1' })).toBe('image/png');
    expect(imageTypeOf({ name: 'photo.jpg', mimeType: '' })).toBe('image/jpeg');
  });

  it('is too large above the cap only when there is a preview to give', () => {
    const at = { name: 'big.txt', mimeType: 'text/plain', size: previewBytesMax };
    expect(previewPlan(at)).toEqual({ kind: 'text', tooLarge: false });
    expect(previewPlan({ ...at, size: previewBytesMax + 1 })).toEqual({ kind: 'text', tooLarge: true });
    expect(previewPlan({ name: 'b.bin', mimeType: 'application/zip', size: previewBytesMax + 1 })).toEqual({
      kind: 'none',
      tooLarge: false,
    });
  });

  it('tells binary bytes from text, and cuts a long text', () => {
    expect(looksBinary(new Uint8Array([104, 105, 0, 1]))).toBe(true);
    expect(looksBinary(new TextEncoder().encode('plain words, é ü'))).toBe(false);
    expect(previewText(new TextEncoder().encode('\uFEFFhé'))).toEqual({ text: 'hé', cut: false });
    const long = previewText(new Uint8Array(textShownMax + 10).fill(97));
    expect(long.cut).toBe(true);
    expect(long.text.length).toBe(textShownMax);
  });
});
