import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import './menu-button.css';

export interface MenuItem {
  id: string;
  label: string;
  /** The shortcut as shown, e.g. "Ctrl+Shift+S"; also given to assistive tech as `aria-keyshortcuts`. */
  keys?: string;
  danger?: boolean;
  run(): void;
}

/**
 * A button that opens a menu (the WAI-ARIA menu button pattern): Enter, Space or ArrowDown open it on its
 * first item, ArrowUp on its last; arrows, Home and End move; Escape closes it and gives focus back to the
 * button; Tab or a click outside closes it.
 */
export function MenuButton(props: {
  label: string;
  title: string;
  items: readonly MenuItem[];
  /** The id of what the button acts on (a row's title), read after its name. */
  describedBy?: string;
  /** Placed over the page beside the button, for a button inside a box that scrolls (a sidebar row). */
  floating?: boolean;
}) {
  const { items, floating } = props;
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const id = useId();

  // A scrolling box would clip a menu hung below its button: a floating one is fixed to the window,
  // under the button (above it near the window's foot), and closes when the page scrolls or resizes.
  useLayoutEffect(() => {
    if (!open || !floating || !button.current || !menu.current) return;
    const place = floatingPlace(button.current.getBoundingClientRect(), menu.current.getBoundingClientRect());
    menu.current.style.top = `${place.top}px`;
    menu.current.style.left = `${place.left}px`;
    // Only a scroll that moves the button closes it: a scroll event can arrive just after the menu opened
    // (the row scrolled into view for the click), and other boxes (a streaming transcript) scroll too.
    const opened = button.current.getBoundingClientRect();
    const away = (event: Event) => {
      if (event.target instanceof Node && menu.current?.contains(event.target)) return;
      const now = button.current?.getBoundingClientRect();
      if (
        event.type === 'scroll' &&
        now &&
        Math.abs(now.top - opened.top) < 1 &&
        Math.abs(now.left - opened.left) < 1
      )
        return;
      setOpen(false);
    };
    window.addEventListener('resize', away);
    window.addEventListener('scroll', away, true);
    return () => {
      window.removeEventListener('resize', away);
      window.removeEventListener('scroll', away, true);
    };
  }, [open, floating]);

  const entries = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  useEffect(() => {
    if (!open) return;
    const all = entries();
    (open === 'last' ? all[all.length - 1] : all[0])?.focus();
    const outside = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(event.key === 'ArrowUp' ? 'last' : 'first');
    }
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const all = entries();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const go = (index: number) => all[(index + all.length) % all.length]?.focus();
    const moves: Record<string, () => void> = {
      ArrowDown: () => go(at + 1),
      ArrowUp: () => go(at - 1),
      Home: () => go(0),
      End: () => go(all.length - 1),
      Escape: () => close(true),
    };
    if (moves[event.key]) {
      event.preventDefault();
      event.stopPropagation();
      moves[event.key]!();
    } else if (event.key === 'Tab') close(false);
  };
  const choose = (item: MenuItem) => {
    close(true);
    item.run();
  };

  return (
    <div className="menu-button">
      <button
        ref={button}
        type="button"
        aria-label={props.title}
        aria-describedby={props.describedBy}
        title={props.title}
        aria-haspopup="menu"
        aria-expanded={!!open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? close(false) : setOpen('first'))}
        onKeyDown={onButtonKey}
      >
        {props.label}
      </button>
      {open ? (
        <ul
          ref={menu}
          id={id}
          role="menu"
          aria-label={props.title}
          className={floating ? 'menu floating' : 'menu'}
          onKeyDown={onMenuKey}
        >
          {items.map((item) => (
            <li
              key={item.id}
              role="menuitem"
              tabIndex={-1}
              aria-keyshortcuts={item.keys ? ariaKeys(item.keys) : undefined}
              className={item.danger ? 'danger' : undefined}
              onClick={() => choose(item)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  choose(item);
                }
              }}
            >
              <span>{item.label}</span>
              {item.keys ? <kbd aria-hidden="true">{item.keys}</kbd> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Where a floating menu goes: below its button, or above it when the window ends first; inside the window. */
function floatingPlace(anchor: DOMRect, menu: DOMRect): { top: number; left: number } {
  const gap = 4;
  const below = anchor.bottom + gap + menu.height <= window.innerHeight;
  const top = below ? anchor.bottom + gap : Math.max(gap, anchor.top - gap - menu.height);
  const left = Math.max(gap, Math.min(anchor.left, window.innerWidth - menu.width - gap));
  return { top, left };
}

/** "Ctrl+Shift+S" → "Control+Shift+S", the names `aria-keyshortcuts` uses. */
function ariaKeys(keys: string): string {
  return keys.replace(/\bCtrl\b/g, 'Control').replace(/\bCmd\b/g, 'Meta');
}
