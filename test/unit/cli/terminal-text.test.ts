import { describe, expect, it } from 'vitest';
import { terminalLine, terminalText } from '../../../src/cli/terminal-text';

describe('text shown in a terminal', () => {
  it('keeps line breaks and tabs of a reply, and turns CR LF into a line break', () => {
    expect(terminalText('one\r\ntwo\tthree\n')).toBe('one\ntwo\tthree\n');
  });

  it('escapes escape sequences, bells, a lone CR, C1 controls and direction overrides', () => {
    expect(terminalText('a\u001b[2Jb\u0007c\rd\u009be\u202ef\u2066g')).toBe(
      'a\\u001b[2Jb\\u0007c\\u000dd\\u009be\\u202ef\\u2066g',
    );
  });

  it('escapes line breaks too in a one-line name', () => {
    expect(terminalLine('notes\n.md\u0000')).toBe('notes\\u000a.md\\u0000');
  });

  it('leaves ordinary text of any script alone', () => {
    const text = 'Grüße, 你好, مرحبا, emoji 🙂';
    expect(terminalText(text)).toBe(text);
    expect(terminalLine(text)).toBe(text);
  });
});
