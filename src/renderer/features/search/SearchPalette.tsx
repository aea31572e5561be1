import { useEffect, useRef, type ReactNode } from 'react';
import type { PaletteKeys } from './Palette';
import { useSearchStore } from '../../stores/search-store';
import { lazyPart, WhenLoaded } from '../../ui/lazy-part';
import { useReturnFocus } from '../../ui/use-return-focus';
import { SearchField } from './SearchField';
import './search.css';

const Palette = lazyPart(() => import('./Palette').then((m) => m.Palette));
type KeysHandler = PaletteKeys['current'];

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
      <PaletteFrame />
    </ReturnFocus>
  ) : null;
}

/** Here, not in the palette: the frame below takes the focus first, and the opener is what gets it back. */
function ReturnFocus(props: { children: ReactNode }) {
  useReturnFocus();
  return props.children;
}

/**
 * The palette's frame and field, here and not in the palette's chunk: the first Mod+K shows them at once,
 * and what is typed while the chunk loads stays in the same field (a field swapped for another dropped
 * what a fast hand typed in between). Escape closes it wherever the focus is: a modal that lost its focus
 * (to the page body, after the window was resized or its colours changed) would otherwise stay open over
 * the app and eat every click.
 */
function PaletteFrame() {
  const input = useRef<HTMLInputElement>(null);
  const keys = useRef<KeysHandler>(null);
  useEffect(() => input.current?.focus(), []);
  const hide = () => useSearchStore.getState().hide();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) hide();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div className="search-backdrop" onMouseDown={hide}>
      <div
        className="search-palette"
        role="dialog"
        aria-modal="true"
        aria-label="Search all conversations"
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') hide();
          else if (!keys.current?.(e.key)) return;
          e.preventDefault();
        }}
      >
        <SearchField ref={input} />
        <WhenLoaded fallback={null}>
          <Palette keys={keys} />
        </WhenLoaded>
      </div>
    </div>
  );
}
