import { toText } from 'hast-util-to-text';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { remarkHtmlAsText } from './html-as-text';
import { imageAsWords } from './safe-rules';

interface MdNode {
  type: string;
  value?: string;
  alt?: string | null;
  children?: MdNode[];
}

/** An image reads as the words the screen shows for it (safe-rules.ts), never as nothing. */
function remarkImagesAsWords() {
  const rewrite = (node: MdNode): MdNode => {
    if (node.type === 'image') return { type: 'text', value: imageAsWords(node.alt) };
    if (node.children) node.children = node.children.map(rewrite);
    return node;
  };
  return rewrite;
}

// Built once: assembling a processor costs more than reading a title with it.
const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkHtmlAsText)
  .use(remarkImagesAsWords)
  .use(remarkRehype);

/**
 * Markdown as the plain text a person reads on screen (Copy text, a conversation's title): no `**`,
 * backticks or link syntax, blocks on their own lines (the innerText algorithm), over the same GFM reading
 * the renderer and the share page use. Raw HTML stays as the characters it is, as the screen shows it.
 */
export function markdownAsPlainText(markdown: string): string {
  return readAsText(markdown, 'normal')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

// 'pre' keeps a paragraph's own line breaks, which the screen folds into spaces: a title is a first line.
function readAsText(markdown: string, whitespace: 'normal' | 'pre'): string {
  return toText(processor.runSync(processor.parse(markdown)), { whitespace });
}

/**
 * Characters of a text read for its first line: more than any title shows. A message can be megabytes, and
 * Markdown built to be slow to read (a hundred nested lists and quotes in 400 characters) costs about 10 ms.
 */
export const FIRST_LINE_READ = 400;

/**
 * The first line a text shows once read as Markdown, whitespace collapsed; '' when it shows none. Only its
 * first 400 characters are read, so a message opening with a fence is titled by its code's first line.
 */
export function firstPlainLine(markdown: string): string {
  const plain = readAsText(markdown.trimStart().slice(0, FIRST_LINE_READ), 'pre');
  for (const line of plain.split('\n')) {
    const words = line.replace(/\s+/g, ' ').trim();
    if (words !== '') return words;
  }
  return '';
}
