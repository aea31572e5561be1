import { useEffect, useState } from 'react';
import { useLibraryStore } from '../../stores/library-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { attachFromLibrary } from './attach-from-library';
import { sizeWords, visibleFiles } from '../../model/library-view';
import { showDirectionControls } from '../../model/bidi-controls';

/** The composer's "attach from library": pick files of the library for the next message. */
export function LibraryPicker(props: { sessionId: string; onDone(problems: string[]): void }) {
  const files = useLibraryStore((s) => s.files);
  const status = useLibraryStore((s) => s.status);
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void useLibraryStore.getState().load();
  }, []);

  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };

  const attach = async () => {
    setBusy(true);
    const problems = await attachFromLibrary(
      props.sessionId,
      files.filter((f) => chosen.has(f.id)),
    );
    setBusy(false);
    props.onDone(problems);
  };

  const shown = visibleFiles(files, query, 'recent');
  return (
    <ConfirmDialog
      title="Attach from your library"
      confirmLabel={busy ? 'Attaching…' : `Attach${chosen.size ? ` (${chosen.size})` : ''}`}
      onCancel={() => props.onDone([])}
      onConfirm={() => void (chosen.size > 0 && !busy ? attach() : undefined)}
    >
      <input
        type="search"
        aria-label="Search the library"
        placeholder="Search by name or type"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      {status === 'ready' && files.length === 0 ? (
        <p className="muted">Your library is empty. Add files on the File library screen.</p>
      ) : null}
      <ul className="picker-list" aria-label="Library files">
        {shown.map((file) => (
          <li key={file.id}>
            <label>
              <input type="checkbox" checked={chosen.has(file.id)} onChange={() => toggle(file.id)} />
              <span className="picker-name">{showDirectionControls(file.name)}</span>
              <span className="muted small-text">{sizeWords(file.size)}</span>
            </label>
          </li>
        ))}
      </ul>
    </ConfirmDialog>
  );
}
