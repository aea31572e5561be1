import './markdown.css';
import {
  memo,
  startTransition,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactElement,
} from 'react';
import { showDirectionControls } from '../../model/bidi-controls';
import { createParseBudget } from '../../model/parse-budget';
import { largeFence } from './large-block';
import type * as MarkdownRender from './markdown-render';

type Renderer = typeof MarkdownRender;

/**
 * The Markdown renderer is a chunk of its own (markdown-render.tsx), loaded when an open chat is first idle
 * (`warmMarkdownRenderer`) or the first time a block shows, whichever comes first; until it is here every block
 * shows as its plain text, so a reply never blanks.
 * A load that fails leaves the text plain, and the next block to show tries again.
 */
let renderer: Renderer | undefined;
let loading: Promise<void> | undefined;
const waiting = new Set<() => void>();

function loadRenderer(): void {
  loading ??= import('./markdown-render').then(
    (loaded) => {
      renderer = loaded;
      for (const notify of waiting) notify();
    },
    () => {
      loading = undefined;
    },
  );
}

function subscribeRenderer(onLoad: () => void): () => void {
  waiting.add(onLoad);
  loadRenderer();
  return () => waiting.delete(onLoad);
}

/**
 * Loads the renderer when the page is next idle, so its first use is not mid-reply: running its script
 * (the parser and the highlighter's languages) takes one task of some 50-80 ms, which a reply's first chunk
 * would otherwise wait behind.
 */
export function warmMarkdownRenderer(): void {
  if (!renderer && !loading) whenIdle(loadRenderer, 2000);
}

/** Calls back when the page is next idle (within `timeoutMs`), with the idle time left; a frame later where there is no idle callback. */
function whenIdle(callback: (timeLeft: () => number) => void, timeoutMs: number): void {
  if (typeof requestIdleCallback === 'function')
    requestIdleCallback((deadline) => callback(() => deadline.timeRemaining()), { timeout: timeoutMs });
  else setTimeout(() => callback(() => 8), 16);
}

function useRenderer(): Renderer | undefined {
  return useSyncExternalStore(subscribeRenderer, () => renderer);
}

/** Parsing per frame stays small; the rest waits for idle slices (a stream may close dozens of blocks a frame). */
const budget = createParseBudget({
  now: () => performance.now(),
  idle: { request: (callback) => whenIdle(callback, 120) },
  nextFrame: (callback) => requestAnimationFrame(() => callback()),
  perFrameMs: 2,
  sliceMs: 6,
});

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
 * text) until an idle slice parses it; one far off screen (`held`) waits for that until it comes near.
 */
export const MarkdownBlock = memo(function MarkdownBlock(props: {
  text: string;
  open?: boolean;
  held?: boolean;
}) {
  const { text, open, held } = props;
  // The newest parse shown, so a block that just closed keeps it until its final parse.
  const kept = useRef<Parsed | undefined>(undefined);
  const render = useRenderer();
  const now = useMemo<Parsed | undefined>(() => {
    if (!render) return undefined;
    if (open) {
      if (text.length <= openParseLimit) return budget.spend(() => parsed(render, text));
      // A large open code block costs nothing to show as code (no parse): it grows as code, not as plain text.
      return largeFence(text) ? parsed(render, text) : undefined;
    }
    if (covers(kept.current, text)) return undefined;
    return budget.tryNow(() => parsed(render, text));
  }, [text, open, render]);
  const [late, setLate] = useState<Parsed | undefined>(undefined);
  const candidates = [now, late, kept.current];
  const exact = candidates.find((p) => covers(p, text));
  const shown = exact ?? candidates.find((p) => p && text.startsWith(p.text));

  useEffect(() => {
    if (shown) kept.current = shown;
  });
  useEffect(() => {
    // `held`: far off screen, the late parse waits until the block comes near.
    if (exact || open || !render || held) return;
    return budget.enqueue(() => {
      const late = parsed(render, text);
      // A transition: React may yield between the blocks parsed late instead of committing all at once.
      startTransition(() => setLate(late));
    });
  }, [text, open, exact, render, held]);

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

function parsed(render: Renderer, text: string): Parsed {
  return { text, element: render.markdownElement(text) };
}
