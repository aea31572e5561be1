import { useEffect, useRef, type ReactNode } from 'react';
import { useSearchStore } from '../../stores/search-store';
import { lazyPart, WhenLoaded } from '../../ui/lazy-part';
import { useReturnFocus } from '../../ui/use-return-focus';
import { SearchField } from './SearchField';
import './search.css';

const Palette = lazyPart(() => import('./Palette').then((m) => m.Palette));

/** Mod+K: a palette searching everything ever said, in every conversation of every agent. */
export function SearchPalette() {
  const open = useSearchStore((s) => s.open);
  useEffect(() => {
    // Capture phase, so Mod+K opens this before the conversation-list filter (which keeps Mod+F).
    const onKey = (event: KeyboardEvent) => {
      if (
        (event.metaKey || event.ctrlKey) &&
        !event.shiftKey &&
        !event.altKey &&
        event.key.toLowerCase() === 'k'
      ) {
        event.preventDefault();
        event.stopPropagation();
        useSearchStore.getState().show();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
  return open ? (
    <ReturnFocus>
      <WhenLoaded fallback={<PaletteFrame />}>
        <Palette />
      </WhenLoaded>
    </ReturnFocus>
  ) : null;
}

/** Here, not in the palette: the frame below takes the focus first, and the opener is what gets it back. */
function ReturnFocus(props: { children: ReactNode }) {
  useReturnFocus();
  return props.children;
}

/**
 * The palette's frame and field while its chunk loads (the first Mod+K): what is typed meanwhile goes
 * to the search (the store's text), which the palette shows when it comes, not to the message box.
 */
function PaletteFrame() {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const hide = () => useSearchStore.getState().hide();
  return (
    <div className="search-backdrop" onMouseDown={hide}>
      <div
        className="search-palette"
        role="dialog"
        aria-modal="true"
        aria-label="Search all conversations"
        aria-busy="true"
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.key === 'Escape' && hide()}
      >
        <SearchField ref={input} />
      </div>
    </div>
  );
}
