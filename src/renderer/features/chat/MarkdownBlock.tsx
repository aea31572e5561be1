import { memo, useRef, useState, type ComponentProps } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { remarkHtmlAsText } from './html-as-text';

const remarkPlugins = [remarkGfm, remarkHtmlAsText];
// react-markdown builds a new processor on every render, and rehype-highlight's attacher
// registers every language each time it runs: build its transform once and share it.
const highlight = rehypeHighlight({ detect: false });
const rehypeSharedHighlight = () => highlight;
const rehypePlugins = [rehypeSharedHighlight];

function CodeBlock(props: ComponentProps<'pre'>) {
  const { children, ...rest } = props;
  const pre = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    const text = pre.current?.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="code-block">
      <button type="button" className="copy-code" onClick={copy} aria-label="Copy code">
        {copied ? 'Copied' : 'Copy'}
      </button>
      <pre ref={pre} {...omitNode(rest)}>
        {children}
      </pre>
    </div>
  );
}

function omitNode<T extends object>(props: T): T {
  const { node: _node, ...rest } = props as T & { node?: unknown };
  return rest as T;
}

function Link(props: ComponentProps<'a'>) {
  const { children, href, ...rest } = omitNode(props);
  return (
    <a {...rest} href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  );
}

const components: Components = { pre: CodeBlock, a: Link };

/** One markdown block. Memoised by its text: a finished block never renders again. */
export const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return (
    <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
      {text}
    </Markdown>
  );
});
