import { describe, expect, it } from 'vitest';
import { cleanTitle } from '../../../../src/service/model-agent/title';

describe('cleanTitle: what a model answers, as a conversation title in plain words', () => {
  it.each([
    ['"Otters and their naps."', 'Otters and their naps'],
    ['Title: Weekend plans', 'Weekend plans'],
    ['Título: Planes del fin de semana', 'Planes del fin de semana'],
    // Markdown a model writes however it is asked (firstPlainLine, tested in plain-text.test.ts), with the above.
    ['Here is a **bold** answer with `code`:', 'Here is a bold answer with code'],
    ['**Title:** Trip to *Lisbon*', 'Trip to Lisbon'],
    ['## Title: Fixing `parse_args`', 'Fixing parse_args'],
    ['"**Quoted bold**"', 'Quoted bold'],
    ['\n\n  Second line first\nthird', 'Second line first'],
    ['-5 degrees outside', '-5 degrees outside'],
  ])('%j → %j', async (answer, title) => {
    expect(await cleanTitle(answer)).toBe(title);
  });

  it('gives none for an answer with no words, and at most 80 characters otherwise', async () => {
    for (const empty of ['', '   \n ', '```', '**', '*'.repeat(5000)])
      expect(await cleanTitle(empty)).toBeNull();
    const long = (await cleanTitle('word '.repeat(100)))!;
    expect(long.length).toBeGreaterThan(70);
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toBe(long.trim());
  });
});
