import { describe, expect, it } from 'vitest';
import { plainLine } from '../../../../src/shared/markdown/plain-line';

describe('plainLine: one line of Markdown as the words it reads as', () => {
  it.each([
    ['a question about **markdown** and <b>html</b>', 'a question about markdown and <b>html</b>'],
    ['Fix `parse_args` in __cli.ts__', 'Fix parse_args in cli.ts'],
    ['`a` and `b`', 'a and b'],
    ['*Quiet* _mornings_ and ~~noise~~', 'Quiet mornings and noise'],
    ['See [the docs](https://example.com) and ![a chart](c.png)', 'See the docs and a chart'],
    ['### A heading', 'A heading'],
    ['> a quote', 'a quote'],
    ['- an item', 'an item'],
    ['* an item', 'an item'],
    ['12. a numbered item', 'a numbered item'],
    ['  spaced \t out  ', 'spaced out'],
    // What is not a pair of marks stays as it is.
    ['snake_case_name and a*b*c', 'snake_case_name and a*b*c'],
    ['```js', '```js'],
    ['-5 degrees', '-5 degrees'],
    ['#hashtag', '#hashtag'],
    ['2 * 3 * 4', '2 * 3 * 4'],
    ['<script>alert(1)</script>', '<script>alert(1)</script>'],
  ])('%j → %j', (line, words) => {
    expect(plainLine(line)).toBe(words);
  });

  it('reads only the first 400 characters of a line', () => {
    expect(plainLine(`**${'a'.repeat(1000)}**`)).toBe(`**${'a'.repeat(398)}`);
    expect(plainLine('**a '.repeat(50_000))).toHaveLength(399);
  });
});
