import { toText } from 'hast-util-to-text';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

// Built once: parsing a reply to copy it is rare, but a processor is not free to assemble.
const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype);

/**
 * A reply's Markdown as the plain text a person reads on screen: no `**`, backticks or link
 * syntax, blocks on their own lines (the innerText algorithm, over the same GFM reading the
 * renderer uses). Raw HTML in the source is dropped, never interpreted.
 */
export function markdownAsPlainText(markdown: string): string {
  const tree = processor.runSync(processor.parse(markdown));
  return toText(tree)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
