import { useCallback, useEffect, useState } from 'react';
import { LIMITS } from '../../../shared/api';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { buildFileTree, oversizeFiles, type TreeNode } from '../../model/file-tree';
import { useAgentConfigStore } from '../../stores/agent-config-store';
import { useSyncStore } from '../../stores/sync-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { DropZone } from './DropZone';
import { base64Of, filesFromPicker, type FolderFile } from './read-folder';
import { SaveOutcome } from './SaveOutcome';
import { SectionFrame } from './SectionFrame';
import { sizeWords } from './agent-config-words';
import { showDirectionControls } from '../../model/bidi-controls';
import { download as saveFile } from '../../ui/export-download';
import { fromBase64 } from '../../ui/read-files';

interface Upload {
  done: number;
  total: number;
  current: string;
}

/** The agent's workspace (`/data/work`): a tree with sizes, upload, delete, download, and the synced folder. */
export function FilesSection(props: { agentId: string }) {
  const { agentId } = props;
  const [files, setFiles] = useState<{ path: string; size: number }[] | null>(null);
  const [loadError, setLoadError] = useState('');
  const [upload, setUpload] = useState<Upload | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [viewing, setViewing] = useState<{ path: string; text: string } | null>(null);
  const [listOnly, setListOnly] = useState(false);
  const synced = useSyncStore((s) => !!s.byAgent[agentId]?.folder);

  const refresh = useCallback(async () => {
    const result = await desk().listWorkspaceFiles(agentId, '');
    if (result.ok) {
      setFiles(result.value.files);
      setLoadError('');
    } else {
      setLoadError(errorWords(result.error));
      useAgentConfigStore.getState().noteError('files', result.error);
    }
  }, [agentId]);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const send = async (picked: FolderFile[]) => {
    const store = useAgentConfigStore.getState();
    const tooBig = oversizeFiles(
      picked.map((p) => ({ name: p.path, size: p.file.size })),
      LIMITS.workspaceFileBytesMax,
    );
    if (tooBig.length > 0)
      return store.setOutcome({
        section: 'files',
        kind: 'failed',
        message: `Not uploaded: ${tooBig.join(', ')} ${tooBig.length === 1 ? 'is' : 'are'} over the 10 MB limit for a workspace file. Nothing was sent.`,
      });
    const total = picked.reduce((sum, p) => sum + p.file.size, 0);
    let done = 0;
    const failed: string[] = [];
    for (const { path, file } of picked) {
      setUpload({ done, total, current: path });
      const result = await desk().writeWorkspaceFile(agentId, path, await base64Of(file));
      if (!result.ok) failed.push(`${path}: ${errorWords(result.error)}`);
      done += file.size;
    }
    setUpload(null);
    await refresh();
    store.setOutcome(
      failed.length > 0
        ? { section: 'files', kind: 'failed', message: `Some files were not uploaded. ${failed.join(' ')}` }
        : {
            section: 'files',
            kind: 'saved',
            message: `Uploaded ${picked.length} file${picked.length === 1 ? '' : 's'}.`,
          },
    );
  };

  const download = async (path: string, view: boolean) => {
    const result = await desk().readWorkspaceFile(agentId, path);
    if (!result.ok) return useAgentConfigStore.getState().noteError('files', result.error);
    if (result.value.kind === 'listing-only') return setListOnly(true);
    const bytes = fromBase64(result.value.contentBase64);
    if (view) return setViewing({ path, text: new TextDecoder().decode(bytes.subarray(0, 200_000)) });
    saveFile(path.split('/').at(-1) ?? 'file', result.value.contentType, bytes);
  };

  const remove = async (path: string) => {
    setDeleting(null);
    const result = await desk().deleteWorkspaceFile(agentId, path);
    if (!result.ok) return useAgentConfigStore.getState().noteError('files', result.error);
    await refresh();
    useAgentConfigStore
      .getState()
      .setOutcome({ section: 'files', kind: 'saved', message: `Deleted ${path}.` });
  };

  const tree = files ? buildFileTree(files) : null;
  return (
    <SectionFrame section="files" about="The agent's own workspace. Files here survive restarts.">
      <DropZone onFiles={(files) => void send(files)}>
        <p>Drop files or folders here to upload them (up to 10 MB each), or</p>
        <label className="file-button">
          Choose files…
          <input
            type="file"
            multiple
            className="visually-hidden"
            aria-label="Upload files"
            onChange={(e) => {
              void send(filesFromPicker(e.target.files));
              e.target.value = '';
            }}
          />
        </label>
        {synced ? (
          <button type="button" onClick={() => void desk().openSyncFolder(agentId, 'folder')}>
            Open the synced folder
          </button>
        ) : null}
      </DropZone>
      {upload ? (
        <div className="studio-progress">
          <label htmlFor="files-progress">Uploading {upload.current}…</label>
          <progress id="files-progress" max={upload.total || 1} value={upload.done} />
        </div>
      ) : null}
      {listOnly ? (
        <p className="studio-warning" role="status">
          This server only lists workspace files: it does not offer their contents, so they cannot be opened
          or downloaded here.
        </p>
      ) : null}
      {loadError ? <p className="error-text">{loadError}</p> : null}
      {tree ? (
        tree.children.length === 0 ? (
          <p className="muted">The workspace is empty.</p>
        ) : (
          <ul className="studio-tree" role="tree" aria-label="Workspace files">
            {tree.children.map((node) => (
              <TreeRow
                key={node.path}
                node={node}
                onDelete={setDeleting}
                onOpen={(p, view) => void download(p, view)}
              />
            ))}
          </ul>
        )
      ) : !loadError ? (
        <p className="muted">Reading the workspace…</p>
      ) : null}
      {viewing ? (
        <div className="studio-viewer" role="region" aria-label={`Contents of ${viewing.path}`}>
          <div className="studio-viewer-head">
            <strong>{showDirectionControls(viewing.path)}</strong>
            <button type="button" className="small" onClick={() => setViewing(null)}>
              Close
            </button>
          </div>
          <pre>{viewing.text}</pre>
        </div>
      ) : null}
      <SaveOutcome section="files" />
      {deleting ? (
        <ConfirmDialog
          title={`Delete ${deleting}?`}
          confirmLabel="Delete"
          danger
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>The file is removed from the agent&apos;s workspace. This cannot be undone here.</p>
        </ConfirmDialog>
      ) : null}
    </SectionFrame>
  );
}

function TreeRow(props: {
  node: TreeNode;
  onDelete(path: string): void;
  onOpen(path: string, view: boolean): void;
}) {
  const { node } = props;
  const [open, setOpen] = useState(true);
  if (node.kind === 'folder')
    return (
      <li role="treeitem" aria-expanded={open} aria-selected={false}>
        <button type="button" className="link studio-folder" onClick={() => setOpen(!open)}>
          {open ? '▾' : '▸'} {showDirectionControls(node.name)}/
        </button>{' '}
        <span className="muted small-text">{sizeWords(node.size)}</span>
        {open ? (
          <ul role="group">
            {node.children.map((child) => (
              <TreeRow key={child.path} node={child} onDelete={props.onDelete} onOpen={props.onOpen} />
            ))}
          </ul>
        ) : null}
      </li>
    );
  return (
    <li role="treeitem" aria-selected={false} aria-label={`${node.path}, ${sizeWords(node.size)}`}>
      <span className="studio-file-name">{showDirectionControls(node.name)}</span>{' '}
      <span className="muted small-text">{sizeWords(node.size)}</span>
      <span className="studio-row-actions">
        <button
          type="button"
          className="small"
          aria-label={`View ${node.path}`}
          onClick={() => props.onOpen(node.path, true)}
        >
          View
        </button>
        <button
          type="button"
          className="small"
          aria-label={`Download ${node.path}`}
          onClick={() => props.onOpen(node.path, false)}
        >
          Download
        </button>
        <button
          type="button"
          className="small"
          aria-label={`Delete ${node.path}`}
          onClick={() => props.onDelete(node.path)}
        >
          Delete
        </button>
      </span>
    </li>
  );
}
