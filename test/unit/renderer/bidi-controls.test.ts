import { describe, expect, it } from 'vitest';
import { showDirectionControls } from '../../../src/renderer/model/bidi-controls';

describe('showDirectionControls', () => {
  it('tags every embedding, override and isolate, and nothing else', () => {
    expect(showDirectionControls('invoice\u202Efdp.exe')).toBe('invoice[U+202E]fdp.exe');
    expect(showDirectionControls('a\u202Ab\u202Bc\u202Cd\u202De\u2066f\u2067g\u2068h\u2069')).toBe(
      'a[U+202A]b[U+202B]c[U+202C]d[U+202D]e[U+2066]f[U+2067]g[U+2068]h[U+2069]',
    );
  });

  it('leaves right-to-left writing and ordinary text alone', () => {
    const arabic = 'مرحبا بالعالم';
    const hebrew = 'שלום \u200F עולם';
    expect(showDirectionControls(arabic)).toBe(arabic);
    expect(showDirectionControls(hebrew)).toBe(hebrew);
    expect(showDirectionControls('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert(1)>');
  });
});
