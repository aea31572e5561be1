import { useEffect, useRef, useState } from 'react';
import { desk } from '../../desk';

const MIN = 200;
const MAX = 520;
const DEFAULT = 260;

/** A handle between the sidebar and the chat: drag or arrow keys; the width is kept for the next start. */
export function SidebarResizer() {
  const [width, setWidth] = useState(DEFAULT);
  // A width the person set before a slow host answered with the remembered one wins over it (and is saved).
  const setByPerson = useRef(false);
  useEffect(() => {
    void desk()
      .getUiState()
      .then((result) => {
        if (result.ok && result.value.sidebarWidth && !setByPerson.current)
          setWidth(clamp(result.value.sidebarWidth));
      });
  }, []);
  useEffect(() => {
    document.documentElement.style.setProperty('--sidebar-width', `${width}px`);
  }, [width]);
  const save = (next: number) => void desk().saveUiState({ sidebarWidth: clamp(next) });

  return (
    <div
      className="sidebar-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label="Sidebar width"
      aria-valuemin={MIN}
      aria-valuemax={MAX}
      aria-valuenow={width}
      tabIndex={0}
      onKeyDown={(event) => {
        const step = event.key === 'ArrowRight' ? 20 : event.key === 'ArrowLeft' ? -20 : 0;
        if (!step) return;
        event.preventDefault();
        setByPerson.current = true;
        const next = clamp(width + step);
        setWidth(next);
        save(next);
      }}
      onPointerDown={(event) => {
        setByPerson.current = true;
        const startX = event.clientX;
        const startWidth = width;
        let last = startWidth;
        const move = (e: PointerEvent) => setWidth((last = clamp(startWidth + e.clientX - startX)));
        const up = () => {
          window.removeEventListener('pointermove', move);
          window.removeEventListener('pointerup', up);
          save(last);
        };
        window.addEventListener('pointermove', move);
        window.addEventListener('pointerup', up);
      }}
    />
  );
}

function clamp(value: number): number {
  return Math.min(MAX, Math.max(MIN, Math.round(value)));
}
