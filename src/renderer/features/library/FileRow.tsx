import type { CSSProperties } from 'react';
import type { LibraryFile } from '../../../shared/api';
import { useLibraryStore } from '../../stores/library-store';
import { fileKindWords } from '../../model/file-kind-words';
import { sizeWords, typeLabel } from '../../model/library-view';
import { showDirectionControls } from '../../model/bidi-controls';

/** One library file: what it is, and open (a preview in the app), copy link, attach, delete. */
export function FileRow(props: {
  file: LibraryFile;
  /** Where the virtual list puts the row, and its place for assistive technology. */
  style: CSSProperties;
  rowIndex: number;
  canAttach: boolean;
  onOpen(): void;
  onAttach(): void;
  onDelete(): void;
  onNote(text: string, alert: boolean): void;
}) {
  const { file } = props;

  const copy = async () => {
    const link = await useLibraryStore.getState().link(file.id);
    if ('error' in link) return props.onNote(link.error, true);
    try {
      await navigator.clipboard.writeText(link.url);
      props.onNote(`Link to ${file.name} copied. It works for up to 6 hours.`, false);
    } catch {
      props.onNote('The link could not be copied to the clipboard.', true);
    }
  };

  return (
    <div role="row" className="file-row" style={props.style} aria-rowindex={props.rowIndex}>
      <div role="cell">
        <span className="file-name">
          <span className="file-badge" aria-hidden="true">
            {typeLabel(file).slice(0, 4)}
          </span>
          <span className="file-name-text" title={file.name}>
            {showDirectionControls(file.name)}
          </span>
        </span>
      </div>
      <div role="cell" className="muted file-type" title={file.mimeType.split(';')[0]}>
        {fileKindWords(file)}
      </div>
      <div role="cell" className="muted">
        {sizeWords(file.size)}
      </div>
      <div role="cell" className="file-actions">
        <button type="button" className="small" onClick={props.onOpen} aria-label={`Open ${file.name}`}>
          Open
        </button>
        <button
          type="button"
          className="small"
          onClick={() => void copy()}
          aria-label={`Copy link to ${file.name}`}
        >
          Copy link
        </button>
        <button
          type="button"
          className="small"
          disabled={!props.canAttach}
          title={props.canAttach ? undefined : 'Open a conversation first'}
          onClick={props.onAttach}
          aria-label={`Attach ${file.name} to message`}
        >
          Attach
        </button>
        <button
          type="button"
          className="small danger"
          onClick={props.onDelete}
          aria-label={`Delete ${file.name}`}
        >
          Delete
        </button>
      </div>
    </div>
  );
}
