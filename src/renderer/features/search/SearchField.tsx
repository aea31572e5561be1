import type { RefObject } from 'react';
import { useSearchStore } from '../../stores/search-store';

/** The palette's search field, bound to the store's text (the palette and its frame while it loads). */
export function SearchField(props: { ref: RefObject<HTMLInputElement | null> }) {
  const text = useSearchStore((s) => s.text);
  return (
    <input
      ref={props.ref}
      type="search"
      className="search-input"
      aria-label="Search everything ever said"
      placeholder="Search every conversation…"
      value={text}
      onChange={(e) => useSearchStore.getState().setText(e.target.value)}
    />
  );
}
