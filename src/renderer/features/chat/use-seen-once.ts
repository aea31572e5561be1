import { useEffect, useRef, useState } from 'react';

/** One observer for every block group: many observers cost more than one watching many targets. */
let observer: IntersectionObserver | undefined;
const waiting = new Map<Element, () => void>();

function shared(): IntersectionObserver {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        waiting.get(entry.target)?.();
        waiting.delete(entry.target);
        observer?.unobserve(entry.target);
      }
    },
    // Parse a little ahead of the viewport so scrolling rarely meets plain text.
    { rootMargin: '800px 0px' },
  );
  return observer;
}

/** True once the element has come near the viewport (or from the start when `initially`). */
export function useSeenOnce<T extends Element>(initially: boolean): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(initially);
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    waiting.set(element, () => setSeen(true));
    shared().observe(element);
    return () => {
      waiting.delete(element);
      observer?.unobserve(element);
    };
  }, [seen]);
  return [ref, seen];
}
