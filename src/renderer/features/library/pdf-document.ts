import { getDocument, PasswordResponses, PDFWorker, type PDFDocumentProxy } from 'pdfjs-dist';

/**
 * PDF.js, loaded only when a PDF is opened (its chunk is not on the first screen). Each document gets its
 * own worker, ended with it. No eval (the CSP forbids it), no XFA forms, no scripts: the pages are drawn
 * into canvases, nothing in the file runs.
 */
export interface OpenedPdf {
  document: PDFDocumentProxy;
  close(): Promise<void>;
}

export async function openPdf(bytes: Uint8Array): Promise<OpenedPdf> {
  const thread = new Worker(new URL('./pdf.worker.ts', import.meta.url), { type: 'module' });
  const worker = PDFWorker.create({ port: thread });
  const close = async () => {
    await task.destroy();
    worker.destroy();
    thread.terminate();
  };
  // PDF.js moves the buffer it is given to the worker: a copy, so the caller keeps its bytes for Download.
  const task = getDocument({
    data: bytes.slice(),
    worker,
    isEvalSupported: false,
    enableXfa: false,
  });
  try {
    return { document: await task.promise, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A PDF that needs a password, told apart from one that cannot be read. */
export function needsPassword(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'PasswordException' &&
    (error as Error & { code?: number }).code !== undefined &&
    [PasswordResponses.NEED_PASSWORD, PasswordResponses.INCORRECT_PASSWORD].includes(
      (error as Error & { code: number }).code,
    )
  );
}
