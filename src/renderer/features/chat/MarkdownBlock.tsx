import './markdown.css';
import {
  isValidElement,
  memo,
  startTransition,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type ReactElement,
} from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { remarkHtmlAsText } from '../../../shared/markdown/html-as-text';
import { codeLanguage, imageAsWords, isOpenableLink } from '../../../shared/markdown/safe-rules';
import { showDirectionControls } from '../../model/bidi-controls';
import { createParseBudget } from '../../model/parse-budget';
import { largeFence } from './large-block';
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
      {language ? <div className="code-lang">{language}</div> : null}
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

/** Parsing per frame stays small; the rest waits for idle slices (a stream may close dozens of blocks a frame). */
const budget = createParseBudget({
  now: () => performance.now(),
  idle: {
    request: (callback) =>
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback((deadline) => callback(() => deadline.timeRemaining()), { timeout: 120 })
        : setTimeout(() => callback(() => 8), 16),
  },
  nextFrame: (callback) => requestAnimationFrame(() => callback()),
  perFrameMs: 2,
  sliceMs: 6,
});

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
  setTimeout(() => warmUpNext(index + 1), 0);
}
if (typeof window !== 'undefined') setTimeout(() => warmUpNext(0), 0);

/** An open block this long shows as plain text until it closes: re-parsing it every frame would cost more and more. */
const openParseLimit = 16 * 1024;

interface Parsed {
  text: string;
  element: ReactElement;
}

/**
 * One markdown block. Memoised by its text: a finished block renders again only
 * to show a parse that came late. The open block (`open`) parses on every change, which the chunk batcher holds
 * to once a frame. A finished block parses at once when the frame's budget
 * allows, and otherwise shows as plain text (or as its last parse plus the new
 * text) until an idle slice parses it.
 */
export const MarkdownBlock = memo(function MarkdownBlock({ text, open }: { text: string; open?: boolean }) {
  // The newest parse shown, so a block that just closed keeps it until its final parse.
  const kept = useRef<Parsed | undefined>(undefined);
  const now = useMemo<Parsed | undefined>(() => {
    if (open) {
      if (text.length <= openParseLimit) return budget.spend(() => parsed(text));
      // A large open code block costs nothing to show as code (no parse): it grows as code, not as plain text.
      return largeFence(text) ? parsed(text) : undefined;
    }
    if (covers(kept.current, text)) return undefined;
    return budget.tryNow(() => parsed(text));
  }, [text, open]);
  const [late, setLate] = useState<Parsed | undefined>(undefined);
  const candidates = [now, late, kept.current];
  const exact = candidates.find((p) => covers(p, text));
  const shown = exact ?? candidates.find((p) => p && text.startsWith(p.text));

  useEffect(() => {
    if (shown) kept.current = shown;
  });
  useEffect(() => {
    if (exact || open) return;
    return budget.enqueue(() => {
      const late = parsed(text);
      // A transition: React may yield between the blocks parsed late instead of committing all at once.
      startTransition(() => setLate(late));
    });
  }, [text, open, exact]);

  if (!shown) return <div className="md-pending">{showDirectionControls(text)}</div>;
  const rest = text.slice(shown.text.length);
  return (
    <>
      {shown.element}
      {rest.trim() ? <div className="md-pending">{showDirectionControls(rest)}</div> : null}
    </>
  );
});

/** Whether `p` is the parse of `text`: trailing blank lines change nothing. */
function covers(p: Parsed | undefined, text: string): p is Parsed {
  return !!p && text.startsWith(p.text) && !text.slice(p.text.length).trim();
}

function parsed(text: string): Parsed {
  const fence = largeFence(text);
  if (!fence) return { text, element: renderMarkdown(text) };
  return {
    text,
    element: (
      <CodeBlock language={fence.language || undefined}>
        <LargeCode language={fence.language} code={fence.code} closed={fence.closed} />
      </CodeBlock>
    ),
  };
}
