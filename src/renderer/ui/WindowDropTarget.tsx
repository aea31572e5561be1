import './window-drop.css';
import type { ReactNode } from 'react';
import { useWindowDrop } from './use-window-drop';

/**
 * The one drop handling of the app (the composer's attachments, the library's uploads): files dropped
 * anywhere on the window go to `onFiles` (nothing while it is undefined), and while a drag is over the
 * window a note says where they will go.
 */
export function WindowDropTarget(props: {
  onFiles: ((files: File[]) => void) | undefined;
  children: ReactNode;
}) {
  const dragging = useWindowDrop(props.onFiles);
  return dragging ? (
    <div className="drop-overlay" aria-hidden="true">
      {props.children}
    </div>
  ) : null;
}
