import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type RefObject } from 'react';
import type { LibraryFile } from '../../../shared/api';
import { FileRow } from './FileRow';

const ROW_HEIGHT = 41;

/** The library's files as a virtual table: only the rows near the view are in the page, however many there are. */
export function FileTable(props: {
  files: readonly LibraryFile[];
  scroller: RefObject<HTMLDivElement | null>;
  canAttach: boolean;
  onOpen(file: LibraryFile): void;
  onAttach(file: LibraryFile): void;
  onDelete(file: LibraryFile): void;
  onNote(text: string, alert: boolean): void;
}) {
  const { files } = props;
  const body = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: files.length,
    getScrollElement: () => props.scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    getItemKey: (index) => files[index]?.id ?? index,
    // The rows start below the uploads and notes that share the scrolling pane.
    scrollMargin: body.current?.offsetTop ?? 0,
  });
  const margin = virtualizer.options.scrollMargin;
  return (
    <div role="table" aria-label="Files" aria-rowcount={files.length + 1} className="file-table">
      <div role="rowgroup">
        <div role="row" className="file-row file-head" aria-rowindex={1}>
          <div role="columnheader">Name</div>
          <div role="columnheader">Type</div>
          <div role="columnheader">Size</div>
          <div role="columnheader">
            <span className="visually-hidden">Actions</span>
          </div>
        </div>
      </div>
      <div role="rowgroup" ref={body} className="file-rows" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const file = files[row.index]!;
          return (
            <FileRow
              key={file.id}
              file={file}
              rowIndex={row.index + 2}
              style={{ transform: `translateY(${row.start - margin}px)`, height: ROW_HEIGHT }}
              canAttach={props.canAttach}
              onOpen={() => props.onOpen(file)}
              onAttach={() => props.onAttach(file)}
              onDelete={() => props.onDelete(file)}
              onNote={props.onNote}
            />
          );
        })}
      </div>
    </div>
  );
}
