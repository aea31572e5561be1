import { describe, expect, it } from 'vitest';
import { firstPlainLine, markdownAsPlainText } from '../../../../src/shared/markdown/plain-text';

describe('markdownAsPlainText: Markdown as the text a person reads on screen', () => {
  it('drops the marks, keeps the words, one block per line', () => {
    const plain = markdownAsPlainText(
      '# Title\n\nSome **bold**, `code` and [a link](https://example.test).\n\n- one\n- two\n\n```js\nconst a = 1;\n```',
    );
    expect(plain).toBe('Title\n\nSome bold, code and a link.\n\none\ntwo\nconst a = 1;');
  });

  it('keeps raw HTML as the characters the screen shows, never as markup', () => {
    expect(markdownAsPlainText('a <img src=x onerror=alert(1)> <b>b</b>')).toBe(
      'a <img src=x onerror=alert(1)> <b>b</b>',
    );
    expect(markdownAsPlainText('<div>\n<script>alert(1)</script>\n</div>')).toContain(
      '<script>alert(1)</script>',
    );
    expect(markdownAsPlainText('a ![chart](https://tracker.example/p.png)')).toBe('a [image: chart]');
  });
});

describe('firstPlainLine: the first line a text shows, as words', () => {
  it.each([
    ['a question about **markdown** and <b>html</b>', 'a question about markdown and <b>html</b>'],
    ['Fix `parse_args` in __cli.ts__', 'Fix parse_args in cli.ts'],
    ['`a` and `b`', 'a and b'],
    ['*Quiet* _mornings_ and ~~noise~~', 'Quiet mornings and noise'],
    ['See [the docs](https://example.com) and ![a chart](c.png)', 'See the docs and [image: a chart]'],
    ['### A heading\n\nand its text', 'A heading'],
    ['> a quote', 'a quote'],
    ['- an item\n- another', 'an item'],
    ['* an item', 'an item'],
    ['12. a numbered item', 'a numbered item'],
    ['  spaced \t out  ', 'spaced out'],
    ['\n\n  Second line first\nthird', 'Second line first'],
    // A fence is no line of its own: its code is what shows.
    ['```js\nconst answer = 42;\n```\nWhy?', 'const answer = 42;'],
    ['![](a-picture.png)', '[image]'],
    ['Hello,\nplease look at this', 'Hello,'],
    // What is not a pair of marks stays as it is.
    ['snake_case_name and 2*3', 'snake_case_name and 2*3'],
    // As the screen shows them: `a*b*c` is an italic b.
    ['a*b*c', 'abc'],
    ['-5 degrees', '-5 degrees'],
    ['#hashtag', '#hashtag'],
    ['2 * 3 * 4', '2 * 3 * 4'],
    ['<script>alert(1)</script>', '<script>alert(1)</script>'],
  ])('%j → %j', (text, words) => {
    expect(firstPlainLine(text)).toBe(words);
  });

  it('is empty for a text that shows no words', () => {
    for (const nothing of ['', '  \n ', '```', '---']) expect(firstPlainLine(nothing)).toBe('');
  });

  it('reads only the first 400 characters of a text', () => {
    expect(firstPlainLine(`**${'a'.repeat(5000)}**`)).toBe(`**${'a'.repeat(398)}`);
    expect(firstPlainLine('**a '.repeat(50_000))).toHaveLength(399);
    expect(firstPlainLine(`${' '.repeat(100_000)}\n  words`)).toBe('words');
  });
});
