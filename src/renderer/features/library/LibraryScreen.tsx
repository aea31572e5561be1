import './library.css';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LibraryFile } from '../../../shared/api';
import { useAgentsStore } from '../../stores/agents-store';
import { useConversationsStore } from '../../stores/conversations-store';
import { followUploadProgress, useLibraryStore } from '../../stores/library-store';
import { useScreenStore } from '../../stores/screen-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useFileIntake } from '../../ui/use-file-intake';
import { WindowDropTarget } from '../../ui/WindowDropTarget';
import { attachFromLibrary } from './attach-from-library';
import { FilePreview } from './FilePreview';
import { FileTable } from './FileTable';
import { UploadList } from './UploadList';
import { visibleFiles, type LibrarySort } from '../../model/library-view';
import { ErrorLine } from '../../ui/ErrorLine';

/** The person's file library: list with search and sort, uploads with progress, preview, links, delete, attach. */
export function LibraryScreen() {
  const files = useLibraryStore((s) => s.files);
  const status = useLibraryStore((s) => s.status);
  const error = useLibraryStore((s) => s.error);
  const query = useLibraryStore((s) => s.query);
  const sort = useLibraryStore((s) => s.sort);
  const sessionId = useConversationsStore((s) => s.selectedId);
  const agentId = useAgentsStore((s) => s.selectedAgentId);
  const scroller = useRef<HTMLDivElement>(null);
  const [deleting, setDeleting] = useState<LibraryFile | null>(null);
  const [opened, setOpened] = useState<LibraryFile | null>(null);
  const [note, setNote] = useState<{ text: string; alert: boolean } | null>(null);

  useEffect(() => {
    void useLibraryStore.getState().load();
    return followUploadProgress();
  }, []);

  const upload = useCallback((chosen: File[]) => void useLibraryStore.getState().upload(chosen), []);
  const shown = visibleFiles(files, query, sort);

  const { picker, openPicker, onPaste } = useFileIntake(upload, 'Choose files to upload');

  const attach = async (file: LibraryFile) => {
    if (!sessionId || !agentId) return;
    const problems = await attachFromLibrary(sessionId, [file]);
    if (problems.length > 0) return setNote({ text: problems.join(' '), alert: true });
    useScreenStore.getState().show('chat');
  };

  return (
    <section className="screen library" aria-label="File library" onPaste={onPaste}>
      <header className="screen-header">
        <h2>File library</h2>
        <input
          type="search"
          className="library-search"
          aria-label="Search files"
          placeholder="Search by name or type"
          value={query}
          onChange={(e) => useLibraryStore.getState().setQuery(e.target.value)}
        />
        <label className="library-sort">
          Sort
          <select
            aria-label="Sort files"
            value={sort}
            onChange={(e) => useLibraryStore.getState().setSort(e.target.value as LibrarySort)}
          >
            <option value="recent">Newest first</option>
            <option value="name">Name</option>
            <option value="size">Size</option>
            <option value="type">Type</option>
          </select>
        </label>
        <button type="button" className="primary" onClick={openPicker}>
          Upload files
        </button>
        {picker}
      </header>
      <div className="screen-body library-body" ref={scroller}>
        <p className="muted small-text">
          Drop files anywhere here, paste them, or use Upload files. Up to 10 MB each.
          {sessionId ? '' : ' Open a conversation to attach library files to a message.'}
        </p>
        <UploadList />
        {note ? (
          <p className={note.alert ? 'error-text' : 'muted'} role={note.alert ? 'alert' : 'status'}>
            {note.text}
          </p>
        ) : null}
        <ErrorLine text={error} />
        {status === 'loading' ? <p className="muted">Loading your files…</p> : null}
        {status === 'ready' && files.length === 0 ? (
          <p className="library-empty">
            Your library is empty. Files you upload here can be attached to any message.
          </p>
        ) : null}
        {files.length > 0 && shown.length === 0 ? <p className="muted">No file matches “{query}”.</p> : null}
        {shown.length > 0 ? (
          <FileTable
            files={shown}
            scroller={scroller}
            canAttach={!!sessionId}
            onOpen={setOpened}
            onAttach={(file) => void attach(file)}
            onDelete={setDeleting}
            onNote={(text, alert) => setNote({ text, alert })}
          />
        ) : null}
      </div>
      <WindowDropTarget onFiles={upload}>Drop files to add them to your library</WindowDropTarget>
      {opened ? <FilePreview file={opened} onClose={() => setOpened(null)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete this file?"
          confirmLabel="Delete"
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const file = deleting;
            setDeleting(null);
            void useLibraryStore
              .getState()
              .remove(file.id)
              .then((problem) => problem && setNote({ text: problem, alert: true }));
          }}
        >
          <p>“{deleting.name}” will be deleted from your library, and its links stop working.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
