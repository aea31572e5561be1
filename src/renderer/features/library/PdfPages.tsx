import { useEffect, useRef, useState } from 'react';
import { pdfPagesMax } from '../../model/file-preview';

type Shown = { state: 'loading' } | { state: 'ready'; total: number } | { state: 'failed'; words: string };

/**
 * A PDF's pages drawn one after another into canvases fitted to the dialog's width, each named
 * "Page n of N" with its text beside it for screen readers. PDF.js loads on first use (pdf-document.ts).
 */
export function PdfPages(props: { bytes: Uint8Array; name: string }) {
  const pages = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState<Shown>({ state: 'loading' });

  useEffect(() => {
    const container = pages.current;
    if (!container) return;
    let gone = false;
    let closing: (() => Promise<void>) | undefined;
    void (async () => {
      const { openPdf, needsPassword } = await import('./pdf-document');
      try {
        const opened = await openPdf(props.bytes);
        closing = opened.close;
        if (gone) return void opened.close();
        const total = opened.document.numPages;
        setShown({ state: 'ready', total });
        const width = Math.min(container.clientWidth - 24, 900);
        for (let n = 1; n <= Math.min(total, pdfPagesMax) && !gone; n++) {
          const page = await opened.document.getPage(n);
          const fit = width / page.getViewport({ scale: 1 }).width;
          const viewport = page.getViewport({ scale: fit * (window.devicePixelRatio || 1) });
          const canvas = document.createElement('canvas');
          canvas.width = Math.floor(viewport.width);
          canvas.height = Math.floor(viewport.height);
          canvas.style.width = `${Math.floor(viewport.width / (window.devicePixelRatio || 1))}px`;
          canvas.setAttribute('role', 'img');
          canvas.setAttribute('aria-label', `Page ${n} of ${total}`);
          const figure = document.createElement('div');
          figure.className = 'pdf-page';
          figure.append(canvas);
          container.append(figure);
          await page.render({ canvas, viewport }).promise;
          const content = await page.getTextContent();
          const words = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
          if (words.trim()) {
            const text = document.createElement('p');
            text.className = 'visually-hidden';
            text.textContent = words;
            figure.append(text);
          }
        }
      } catch (error) {
        if (gone) return;
        setShown({
          state: 'failed',
          words: needsPassword(error)
            ? 'This PDF is protected with a password. Download it to open it in another app.'
            : 'This PDF could not be read. Download it to open it in another app.',
        });
      }
    })();
    return () => {
      gone = true;
      container.replaceChildren();
      void closing?.();
    };
  }, [props.bytes]);

  return (
    <>
      {shown.state === 'loading' ? (
        <p className="muted" role="status">
          Opening the PDF…
        </p>
      ) : null}
      {shown.state === 'failed' ? <p role="alert">{shown.words}</p> : null}
      {shown.state === 'ready' && shown.total > pdfPagesMax ? (
        <p className="muted">
          Showing the first {pdfPagesMax} of {shown.total} pages. Download the file to read the rest.
        </p>
      ) : null}
      <div
        ref={pages}
        className="pdf-pages"
        role="region"
        aria-label={`Pages of ${props.name}`}
        tabIndex={0}
        hidden={shown.state === 'failed'}
      />
    </>
  );
}
