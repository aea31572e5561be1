import { useState, type ReactNode } from 'react';
import { filesFromDrop, type FolderFile } from './read-folder';

/** A dashed area that takes dropped files and folders (walked into paths) beside its own picker. */
export function DropZone(props: { onFiles(files: FolderFile[]): void; children: ReactNode }) {
  const [dragging, setDragging] = useState(false);
  return (
    <div
      className={`studio-drop ${dragging ? 'dragging' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        event.stopPropagation();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        event.stopPropagation();
        setDragging(false);
        void filesFromDrop(event.dataTransfer.items).then(props.onFiles);
      }}
    >
      {props.children}
    </div>
  );
}
