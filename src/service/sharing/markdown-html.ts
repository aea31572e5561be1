import type { Element, ElementContent, Root, RootContent } from 'hast';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { remarkHtmlAsText } from '../../shared/markdown/html-as-text';
import { codeLanguage, imageAsWords, isOpenableLink } from '../../shared/markdown/safe-rules';

/**
 * A message's Markdown as the HTML of the public share page, read the way the app reads it: GFM (tables,
 * lists, strikethrough), raw HTML shown as its characters (never markup), code in monospace and labelled
 * with the language its fence names, links opening only to web and mail addresses, images as words.
 * remark-rehype drops any raw HTML node that would be left, and rehype-stringify escapes every text.
 */
function rehypeAppRules() {
  return (tree: Root) => {
    tree.children = tree.children.map((child) => apply(child) as RootContent);
  };
}

function apply(node: RootContent | ElementContent): RootContent | ElementContent {
  if (node.type !== 'element') return node;
  if (node.tagName === 'img') return { type: 'text', value: imageAsWords(String(node.properties.alt ?? '')) };
  node.children = node.children.map((child) => apply(child) as ElementContent);
  if (node.tagName === 'a') {
    const href = typeof node.properties.href === 'string' ? node.properties.href : undefined;
    if (!isOpenableLink(href))
      return { type: 'element', tagName: 'span', properties: {}, children: node.children };
    node.properties = { href, rel: ['noreferrer', 'noopener', 'nofollow'], target: '_blank' };
  }
  if (node.tagName === 'pre') return labelledCode(node);
  return node;
}

/** A code block with the name of its language above it, as in the app. */
function labelledCode(pre: Element): Element {
  const code = pre.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
  const language = code ? codeLanguage(code.properties.className) : undefined;
  const label: Element[] = language
    ? [
        {
          type: 'element',
          tagName: 'div',
          properties: { className: ['code-lang'] },
          children: [{ type: 'text', value: language }],
        },
      ]
    : [];
  return {
    type: 'element',
    tagName: 'div',
    properties: { className: ['code-block'] },
    children: [...label, pre],
  };
}

// Built once: the page may list hundreds of messages.
const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkHtmlAsText)
  .use(remarkRehype)
  .use(rehypeAppRules)
  .use(rehypeStringify, { characterReferences: { useNamedReferences: true } });

export function markdownToHtml(markdown: string): string {
  return String(processor.processSync(markdown));
}
