import { useLibraryStore, type LibraryUpload } from '../../stores/library-store';
import { sizeWords } from '../../model/library-view';

const statusWords: Record<LibraryUpload['status'], string> = {
  uploading: 'Uploading',
  done: 'Uploaded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** Uploads of this session: a progress bar and cancel while running, the outcome after. */
export function UploadList() {
  const uploads = useLibraryStore((s) => s.uploads);
  if (uploads.length === 0) return null;
  return (
    <ul className="upload-list" aria-label="Uploads">
      {uploads.map((upload) => (
        <li key={upload.id} className={`upload ${upload.status}`} aria-label={`Upload of ${upload.name}`}>
          <span className="upload-name">{upload.name}</span>
          {upload.status === 'uploading' ? (
            <progress
              aria-label={`Progress of ${upload.name}`}
              max={Math.max(upload.total, 1)}
              value={upload.sent}
            />
          ) : null}
          <span className="muted small-text upload-state">
            {upload.status === 'uploading'
              ? `${sizeWords(upload.sent)} of ${sizeWords(upload.total)}`
              : (upload.error ?? statusWords[upload.status])}
          </span>
          {upload.status === 'uploading' ? (
            <button
              type="button"
              className="small"
              onClick={() => void useLibraryStore.getState().cancelUpload(upload.id)}
            >
              Cancel
            </button>
          ) : (
            <button
              type="button"
              className="icon"
              aria-label={`Dismiss ${upload.name}`}
              onClick={() => useLibraryStore.getState().dismissUpload(upload.id)}
            >
              ×
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
