import { useContext, useEffect, useMemo, useState } from 'react';
import type { LibraryFile } from '../../../shared/api';
import { imageTypeOf, previewText, textShownMax, type PreviewKind } from '../../model/file-preview';
import { MarkdownSlot } from '../../ui/markdown-slot';
import { PdfPages } from './PdfPages';

/** A previewable file's contents: the image fitted, the text in monospace, Markdown formatted, PDF pages. */
export function PreviewBody(props: { file: LibraryFile; kind: PreviewKind; bytes: Uint8Array<ArrayBuffer> }) {
  const { file, kind, bytes } = props;
  if (kind === 'image') return <ImagePreview file={file} bytes={bytes} />;
  if (kind === 'pdf') return <PdfPages bytes={bytes} name={file.name} />;
  if (kind === 'text' || kind === 'markdown') return <TextPreview file={file} kind={kind} bytes={bytes} />;
  return null;
}

/** From a blob URL, never inlined: an SVG shown by <img> runs no script and loads nothing. */
function ImagePreview(props: { file: LibraryFile; bytes: Uint8Array<ArrayBuffer> }) {
  const { file, bytes } = props;
  const [url, setUrl] = useState('');
  const [broken, setBroken] = useState(false);
  const type = imageTypeOf(file);
  useEffect(() => {
    const made = URL.createObjectURL(new Blob([bytes], { type }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [bytes, type]);
  if (broken)
    return <p role="alert">This image could not be shown. Download it to open it in another app.</p>;
  return url ? (
    <img className="file-preview-image" src={url} alt={file.name} onError={() => setBroken(true)} />
  ) : null;
}

function TextPreview(props: {
  file: LibraryFile;
  kind: 'text' | 'markdown';
  bytes: Uint8Array<ArrayBuffer>;
}) {
  const { text, cut } = useMemo(() => previewText(props.bytes), [props.bytes]);
  const Markdown = useContext(MarkdownSlot);
  const label = `Contents of ${props.file.name}`;
  return (
    <>
      {cut ? (
        <p className="muted">
          Showing the first {textShownMax / 1_000_000} million characters. Download the file to read the rest.
        </p>
      ) : null}
      {props.kind === 'markdown' && Markdown ? (
        <div
          className="file-preview-text file-preview-markdown"
          role="region"
          aria-label={label}
          tabIndex={0}
        >
          <Markdown text={text} />
        </div>
      ) : (
        <pre className="file-preview-text" role="region" aria-label={label} tabIndex={0}>
          {text}
        </pre>
      )}
    </>
  );
}
