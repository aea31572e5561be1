import { describe, expect, it } from 'vitest';
import { fileKindWords } from '../../../src/renderer/model/file-kind-words';

describe('fileKindWords', () => {
  it('names common kinds as people know them, never the MIME type', () => {
    expect(fileKindWords({ nombre: 'notes.md', mimeType: 'text/markdown; charset=utf-8' })).toBe(
      'Markdown text',
    );
    expect(fileKindWords({ nombre: 'a.pdf', mimeType: 'application/pdf' })).toBe('PDF document');
    expect(
      fileKindWords({
        nombre: 'plan.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      }),
    ).toBe('Word document');
  });

  it('falls back on the family and the extension', () => {
    expect(fileKindWords({ nombre: 'pixel.png', mimeType: 'image/png' })).toBe('PNG image');
    expect(fileKindWords({ nombre: 'voice', mimeType: 'audio/x-wav' })).toBe('WAV audio');
    expect(fileKindWords({ nombre: 'data.bin', mimeType: 'application/octet-stream' })).toBe('BIN file');
    expect(fileKindWords({ nombre: 'blob', mimeType: 'application/octet-stream' })).toBe('File');
  });
});
