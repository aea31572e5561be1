/**
 * The Markdown renderer (react-markdown, GFM, highlight.js through rehype-highlight): a chunk of its own,
 * which MarkdownBlock loads the first time a reply shows, so the first screen's script carries none of it.
 */
import { isValidElement, useRef, useState, type ComponentProps, type ReactElement } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { remarkHtmlAsText } from '../../../shared/markdown/html-as-text';
import { codeLanguage, imageAsWords, isOpenableLink } from '../../../shared/markdown/safe-rules';
import { showDirectionControls } from '../../model/bidi-controls';
import { highlightCode } from './code-tokens';
import { largeFence, streamingFence } from './large-block';
import { LargeCode } from './LargeCode';

const remarkPlugins = [remarkGfm, remarkHtmlAsText];
// react-markdown builds a new processor on every render, and rehype-highlight's attacher
// registers every language each time it runs: build its transform once and share it.
const highlight = rehypeHighlight({ detect: false });
const rehypeSharedHighlight = () => highlight;
const rehypePlugins = [rehypeSharedHighlight];

/** The language a fence names, read from the `<code>` react-markdown puts in the `<pre>`. */
function languageOf(children: unknown): string | undefined {
  return isValidElement(children)
    ? codeLanguage((children.props as { className?: unknown }).className)
    : undefined;
}

function CodeBlock(props: ComponentProps<'pre'> & { language?: string | undefined }) {
  const { children, language: named, ...rest } = props;
  const language = named ?? languageOf(children);
  const pre = useRef<HTMLPreElement>(null);
  // What the button says for a moment after a copy: it worked, or the system refused it.
  const [outcome, setOutcome] = useState<'' | 'Copied' | 'Not copied'>('');
  const copy = async () => {
    const text = pre.current?.textContent ?? '';
    const said = await navigator.clipboard.writeText(text).then(
      () => 'Copied' as const,
      () => 'Not copied' as const,
    );
    setOutcome(said);
    setTimeout(() => setOutcome(''), 1500);
  };
  return (
    <div className="code-block">
      {/* A row of its own above the code, so the button never covers a line of it, however long. */}
      <div className="code-head">
        {language ? <span className="code-lang">{language}</span> : null}
        <button
          type="button"
          className="copy-code"
          onClick={copy}
          aria-label="Copy code"
          title={
            outcome === 'Not copied' ? 'The system refused; select the code and copy it instead' : undefined
          }
        >
          {outcome || 'Copy'}
        </button>
      </div>
      <span className="visually-hidden" role="status">
        {outcome === 'Copied' ? 'Code copied.' : outcome === 'Not copied' ? 'The code was not copied.' : ''}
      </span>
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
  if (!isOpenableLink(href)) return <span className="md-inert-link">{children}</span>;
  return (
    <a {...rest} href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  );
}

/**
 * A reply never makes the app fetch from elsewhere (a tracking pixel, a request to a local service), and
 * react-markdown already empties `data:` and `javascript:` sources: an image in a reply shows as its words.
 */
function Image(props: ComponentProps<'img'>) {
  const { alt } = omitNode(props);
  return <span className="md-image-text">{imageAsWords(alt)}</span>;
}

const components: Components = { pre: CodeBlock, a: Link, img: Image };

/** Markdown to React elements. `Markdown` is a plain function (no hooks), so it can run outside a render. */
function renderMarkdown(text: string): ReactElement {
  return Markdown({ children: showDirectionControls(text), remarkPlugins, rehypePlugins, components });
}

/**
 * The parser and the highlighter compile much of themselves on first use (tens of ms, cold):
 * do that a sample at a time when the app starts, so the first reply does not stutter.
 */
const warmUp = [
  'Hello.',
  'Some **bold**, `code`, a [link](https://example.com) and www.example.com.',
  '- one\n- two\n\n1. three',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '```ts\nconst a: number = 1;\n```',
  '```js\nconst a = 1;\n```',
  '```python\ndef a():\n    return 1\n```',
  '```bash\necho "$HOME"\n```',
  '```json\n{ "a": 1 }\n```',
];
/** One sample per task, from app start: the first reply may come soon after. */
function warmUpNext(index: number): void {
  const sample = warmUp[index];
  if (sample === undefined) return;
  renderMarkdown(sample);
  // A fence's language is also compiled by the highlighter that streaming code uses (LargeCode.tsx).
  const fence = /^```(\w+)\n([\s\S]*)\n```$/.exec(sample);
  if (fence) highlightCode(fence[1]!, fence[2]!);
  setTimeout(() => warmUpNext(index + 1), 0);
}
if (typeof window !== 'undefined') setTimeout(() => warmUpNext(0), 0);

/**
 * A block's text as React elements: a large code fence, or an open one that streams, as a code view in
 * pieces (LargeCode.tsx), anything else as Markdown.
 */
export function markdownElement(text: string): ReactElement {
  const fence = largeFence(text) ?? streamingFence(text);
  if (!fence) return renderMarkdown(text);
  return (
    <CodeBlock language={fence.language || undefined}>
      <LargeCode language={fence.language} code={fence.code} closed={fence.closed} />
    </CodeBlock>
  );
}
