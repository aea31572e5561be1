import { describe, expect, it } from 'vitest';
import { cleanTitle } from '../../../../src/service/model-agent/title';

describe('cleanTitle: what a model answers, as a conversation title in plain words', () => {
  it.each([
    ['"Otters and their naps."', 'Otters and their naps'],
    ['Title: Weekend plans', 'Weekend plans'],
    ['Título: Planes del fin de semana', 'Planes del fin de semana'],
    // Markdown a model writes however it is asked: bold, italics, code, strikethrough, links, headings, lists.
    ['Here is a **bold** answer with `code`:', 'Here is a bold answer with code'],
    ['**Title:** Trip to *Lisbon*', 'Trip to Lisbon'],
    ['## Fixing `parse_args` in cli.ts', 'Fixing parse_args in cli.ts'],
    ['`a` and `b`', 'a and b'],
    ['Read [the docs](https://example.com) first.', 'Read the docs first'],
    ['Old ~~plan~~ new plan', 'Old plan new plan'],
    ['_Quiet_ mornings', 'Quiet mornings'],
    ['- Packing list', 'Packing list'],
    ['1. Packing list', 'Packing list'],
    ['> Quoted idea', 'Quoted idea'],
    ['"**Quoted bold**"', 'Quoted bold'],
    ['A  wide\tgap', 'A wide gap'],
    ['\n\n  Second line first\nthird', 'Second line first'],
    // Marks that are part of the words stay.
    ['snake_case_name check', 'snake_case_name check'],
    ['Is a*b*c safe', 'Is a*b*c safe'],
    ['-5 degrees outside', '-5 degrees outside'],
    ['Café — menu', 'Café — menu'],
  ])('%j → %j', (answer, title) => {
    expect(cleanTitle(answer)).toBe(title);
  });

  it('gives none for an answer with no words, and at most 80 characters otherwise', () => {
    for (const empty of ['', '   \n ', '```', '**', '*'.repeat(5000)]) expect(cleanTitle(empty)).toBeNull();
    const long = cleanTitle('word '.repeat(100))!;
    expect(long.length).toBeGreaterThan(70);
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toBe(long.trim());
  });
});
