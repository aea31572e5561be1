import { useEffect, useId, useRef, useState } from 'react';
import type { LibraryFile } from '../../../shared/api';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { showDirectionControls } from '../../model/bidi-controls';
import { fileKindWords } from '../../model/file-kind-words';
import { looksBinary, previewBytesMax, previewPlan } from '../../model/file-preview';
import { sizeWords } from '../../model/library-view';
import { useLibraryStore } from '../../stores/library-store';
import { download } from '../../ui/export-download';
import { fromBase64 } from '../../ui/read-files';
import { useReturnFocus } from '../../ui/use-return-focus';
import { PreviewBody } from './PreviewBody';

type Read =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; bytes: Uint8Array<ArrayBuffer> }
  | { state: 'failed'; words: string };

/**
 * The library's Open: a modal with the file's name, kind and size, a Download button and its preview
 * (image, text, Markdown, PDF) or plain words where there is none. The bytes come through the host
 * (the spec's signed download link), read once and kept for Download. Escape or Close leave, and focus
 * goes back to the Open button.
 */
export function FilePreview(props: { file: LibraryFile; onClose(): void }) {
  const { file } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const plan = previewPlan(file);
  const readable = plan.kind !== 'none' && !plan.tooLarge;
  const [read, setRead] = useState<Read>(readable ? { state: 'loading' } : { state: 'idle' });
  const [note, setNote] = useState('');
  useReturnFocus();

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  useEffect(() => {
    if (!readable) return;
    let gone = false;
    void desk()
      .downloadFile(file.id)
      .then((result) => {
        if (gone) return;
        if (!result.ok) return setRead({ state: 'failed', words: errorWords(result.error) });
        setRead({ state: 'ready', bytes: fromBase64(result.value.dataBase64) });
      });
    return () => {
      gone = true;
    };
  }, [file.id, readable]);

  const save = async () => {
    setNote('');
    if (read.state === 'ready') return download(file.name, file.mimeType, read.bytes);
    if (file.size <= previewBytesMax) {
      const result = await desk().downloadFile(file.id);
      if (!result.ok) return setNote(`The file could not be downloaded: ${errorWords(result.error)}`);
      return download(file.name, file.mimeType, fromBase64(result.value.dataBase64));
    }
    // Too large to bring through the app: the browser fetches the signed link and saves it.
    const link = await useLibraryStore.getState().link(file.id);
    if ('error' in link) return setNote(link.error);
    const opened = await desk().openExternal(link.url);
    if (!opened.ok) setNote(errorWords(opened.error));
  };

  const binary = read.state === 'ready' && plan.kind === 'text' && looksBinary(read.bytes);
  return (
    <dialog
      ref={dialog}
      // With nothing to show the dialog is only as tall as its words.
      className={readable && !binary ? 'dialog file-preview' : 'dialog file-preview compact'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
    >
      <header className="file-preview-head">
        <div className="file-preview-title">
          <h2 id={titleId}>{showDirectionControls(file.name)}</h2>
          <p className="muted">
            {fileKindWords(file)} · {sizeWords(file.size)}
          </p>
        </div>
        <button type="button" className="primary" onClick={() => void save()}>
          Download
        </button>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </header>
      {note ? (
        <p className="error-text" role="alert">
          {note}
        </p>
      ) : null}
      <div className="file-preview-body">
        {plan.tooLarge ? (
          <p>
            This file is over {previewBytesMax >> 20} MB, too large to preview here. Download opens it in your
            web browser, which saves it.
          </p>
        ) : plan.kind === 'none' || binary ? (
          <p>There is no preview for this kind of file. Download it to open it in another app.</p>
        ) : read.state === 'loading' ? (
          <p className="muted" role="status">
            Opening…
          </p>
        ) : read.state === 'failed' ? (
          <p role="alert">This file could not be opened: {read.words}</p>
        ) : read.state === 'ready' ? (
          <PreviewBody file={file} kind={plan.kind} bytes={read.bytes} />
        ) : null}
      </div>
    </dialog>
  );
}
