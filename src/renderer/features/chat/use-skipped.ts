import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether the browser skips the element's content now (`content-visibility: auto`, far off screen), from
 * its own `contentvisibilityautostatechange` event: no observer of ours is needed to know it.
 */
export function useSkipped(ref: RefObject<Element | null>): boolean {
  const [skipped, setSkipped] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const changed = (event: Event) => setSkipped((event as ContentVisibilityAutoStateChangeEvent).skipped);
    element.addEventListener('contentvisibilityautostatechange', changed);
    return () => element.removeEventListener('contentvisibilityautostatechange', changed);
  }, [ref]);
  return skipped;
}
