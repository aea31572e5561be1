import { describe, expect, it } from 'vitest';
import { fileKindWords } from '../../../src/renderer/model/file-kind-words';

describe('fileKindWords', () => {
  it('names common kinds as people know them, never the MIME type', () => {
    expect(fileKindWords({ name: 'notes.md', mimeType: 'text/markdown; charset=utf-8' })).toBe(
      'Markdown text',
    );
    expect(fileKindWords({ name: 'a.pdf', mimeType: 'application/pdf' })).toBe('PDF document');
    expect(
      fileKindWords({
        name: 'plan.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      }),
    ).toBe('Word document');
  });

  it('falls back on the family and the extension', () => {
    expect(fileKindWords({ name: 'pixel.png', mimeType: 'image/png' })).toBe('PNG image');
    expect(fileKindWords({ name: 'voice', mimeType: 'audio/x-wav' })).toBe('WAV audio');
    expect(fileKindWords({ name: 'data.bin', mimeType: 'application/octet-stream' })).toBe('BIN file');
    expect(fileKindWords({ name: 'blob', mimeType: 'application/octet-stream' })).toBe('File');
  });
});
