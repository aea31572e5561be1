import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  markdownParts,
  splitMarkdown,
  type MarkdownSplit,
} from '../../../src/renderer/model/markdown-splitter';

const texts = (split: MarkdownSplit) => split.blocks.map((block) => block.text);

describe('splitMarkdown', () => {
  it('splits at blank lines into closed blocks and one open block', () => {
    const split = splitMarkdown('# Title\n\nFirst paragraph\nstill first.\n\nSecond');
    expect(texts(split)).toEqual(['# Title\n\n', 'First paragraph\nstill first.\n\n', 'Second']);
    expect(split.blocks.map((block) => block.closed)).toEqual([true, true, false]);
  });

  it('never splits inside a fenced code block, even across blank lines', () => {
    const text = 'Intro\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\nAfter';
    expect(texts(splitMarkdown(text))).toEqual([
      'Intro\n\n',
      '```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\n',
      'After',
    ]);
  });

  it('keeps an open fence in the open block until it closes', () => {
    const split = splitMarkdown('Intro\n\n```\ncode\n\nmore code');
    expect(texts(split)).toEqual(['Intro\n\n', '```\ncode\n\nmore code']);
    expect(split.blocks[1]?.closed).toBe(false);
  });

  it('keeps indented continuations (nested list paragraphs, indented code) with their block', () => {
    const text = '- item one\n\n  more of item one\n\n    code\n\nNext';
    expect(texts(splitMarkdown(text))).toEqual(['- item one\n\n  more of item one\n\n    code\n\n', 'Next']);
  });

  it('treats a tilde fence and a longer closing fence correctly', () => {
    const text = '~~~~\n```\n\nstill code\n~~~~\n\nout';
    expect(texts(splitMarkdown(text))).toEqual(['~~~~\n```\n\nstill code\n~~~~\n\n', 'out']);
  });

  it('reuses the closed block objects when the text only grew, and re-parses only the open block', () => {
    const first = splitMarkdown('One\n\nTwo\n\nThr');
    const second = splitMarkdown('One\n\nTwo\n\nThree and more', first);
    expect(second.blocks[0]).toBe(first.blocks[0]);
    expect(second.blocks[1]).toBe(first.blocks[1]);
    expect(second.blocks[2]).toEqual({ key: 'b2', text: 'Three and more', closed: false });
  });

  it('starts over when the text was replaced rather than extended', () => {
    const first = splitMarkdown('One\n\nTwo');
    const second = splitMarkdown('Other\n\nText', first);
    expect(texts(second)).toEqual(['Other\n\n', 'Text']);
    expect(second.blocks[0]).not.toBe(first.blocks[0]);
  });

  it('gives no blocks for empty text', () => {
    expect(splitMarkdown('').blocks).toEqual([]);
  });

  const markdownish = fc
    .array(
      fc.constantFrom(
        'text ',
        'more',
        '\n',
        '\n\n',
        '```',
        '```js\n',
        '~~~\n',
        '  ',
        '- item',
        '# h',
        '`x`',
        '\t',
        '|a|b|',
      ),
      { maxLength: 60 },
    )
    .map((pieces) => pieces.join(''));

  it('property: the blocks joined give back the text exactly, and only the last block is open', () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        const split = splitMarkdown(text);
        expect(texts(split).join('')).toBe(text);
        split.blocks.slice(0, -1).forEach((block) => expect(block.closed).toBe(true));
      }),
    );
  });

  it('property: splitting as the text streams in any chunks equals splitting it whole', () => {
    fc.assert(
      fc.property(markdownish, fc.array(fc.nat(), { maxLength: 10 }), (text, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        let split: MarkdownSplit | undefined;
        const closedSoFar: string[] = [];
        for (const point of [...points, text.length]) {
          split = splitMarkdown(text.slice(0, point), split);
          // A closed block never changes afterwards.
          split.blocks.forEach((block, index) => {
            if (index < closedSoFar.length) expect(block.text).toBe(closedSoFar[index]);
          });
          closedSoFar.splice(
            0,
            closedSoFar.length,
            ...split.blocks.filter((b) => b.closed).map((b) => b.text),
          );
        }
        expect(texts(split as MarkdownSplit)).toEqual(texts(splitMarkdown(text)));
      }),
    );
  });
});

describe('markdownParts (a long finished reply shown in parts)', () => {
  const reply = Array.from({ length: 400 }, (_, i) =>
    i % 5 === 0 ? '```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n' : `Paragraph ${i} with some words.\n\n`,
  ).join('');

  it('gives back the text, each part at least the size and cut only between top-level blocks', () => {
    const parts = markdownParts(reply, 1000);
    expect(parts.join('')).toBe(reply);
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts.slice(0, -1)) expect(part.length).toBeGreaterThanOrEqual(1000);
    // Splitting each part gives the same blocks as splitting the whole: no fence is cut open.
    expect(parts.flatMap((part) => texts(splitMarkdown(part)))).toEqual(texts(splitMarkdown(reply)));
  });

  it('keeps a short text whole', () => {
    expect(markdownParts('short', 1000)).toEqual(['short']);
  });
});
