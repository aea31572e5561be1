import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import './lazy-part.css';

/**
 * A part of the app that is not on the first screen (the studio, settings, the library ...) is a chunk
 * of its own, loaded the first time it shows: `lazyPart(() => import('./X').then((m) => m.X))`.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }));
}

/**
 * Shows a lazy part, with `fallback` in its place while its chunk loads (a quiet "Loading…" unless
 * told otherwise), and words with a Reload button instead of a blank window if it cannot be shown.
 */
export function WhenLoaded(props: { children: ReactNode; fallback?: ReactNode }) {
  return (
    <LoadProblem>
      <Suspense fallback={props.fallback === undefined ? <PartLoading /> : props.fallback}>
        {props.children}
      </Suspense>
    </LoadProblem>
  );
}

/** Shows only after a moment (CSS), so a chunk read from disk in a few ms flashes nothing. */
export function PartLoading() {
  return (
    <p className="empty-state part-loading" role="status">
      Loading…
    </p>
  );
}

/** A part whose chunk did not load (a build replaced under a running window) or that failed to render. */
class LoadProblem extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="empty-state" role="alert">
        <p>This part of AgentDesk could not be shown.</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload the window
        </button>
      </div>
    );
  }
}
