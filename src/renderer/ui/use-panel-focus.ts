import { useEffect, useSyncExternalStore, type KeyboardEvent, type RefObject } from 'react';
import { useReturnFocus } from './use-return-focus';

/** Whether a media query matches, following its changes (a window resized across it). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => matchMedia(query).matches,
  );
}

/** Makes everything outside `element` inert, as a modal dialog's outside is; returns the undo. */
function inertOutside(element: HTMLElement): () => void {
  const marked: HTMLElement[] = [];
  for (let node = element; node.parentElement && node !== document.body; node = node.parentElement) {
    for (const sibling of node.parentElement.children) {
      if (sibling === node || !(sibling instanceof HTMLElement) || sibling.inert) continue;
      sibling.inert = true;
      marked.push(sibling);
    }
  }
  return () => {
    for (const sibling of marked) sibling.inert = false;
  };
}

/**
 * A panel that takes the focus when it opens (its `first` element) and closes with Escape, giving the
 * focus back to what opened it. While `modal` (it lies over the window) it is a dialog: everything else
 * is inert, so Tab stays inside, and a click outside closes it. Returns the panel's keydown handler.
 */
export function usePanelFocus(
  panel: RefObject<HTMLElement | null>,
  options: { modal: boolean; first: string; onClose(): void },
): (event: KeyboardEvent) => void {
  const { modal, first, onClose } = options;
  // Declared before useReturnFocus: the outside is live again by the time the focus goes back to it.
  useEffect(() => {
    const element = panel.current;
    if (!modal || !element) return;
    const undo = inertOutside(element);
    const outside = (event: PointerEvent) => {
      if (!element.contains(event.target as Node)) onClose();
    };
    document.addEventListener('pointerdown', outside);
    return () => {
      document.removeEventListener('pointerdown', outside);
      undo();
    };
  }, [panel, modal, onClose]);
  useReturnFocus();
  useEffect(() => {
    panel.current?.querySelector<HTMLElement>(first)?.focus();
  }, [panel, first]);
  return (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    // A dialog opened from the panel (a confirmation) closes on its own Escape, not the panel.
    if ((event.target as Element).closest('dialog')) return;
    event.preventDefault();
    onClose();
  };
}
