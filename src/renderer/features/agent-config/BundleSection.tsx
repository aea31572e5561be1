import { useState } from 'react';
import type { AgentConfiguration, AppliedBundle } from '../../../shared/api';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { SectionFrame } from './SectionFrame';

/**
 * The agent as a bundle (`instructions.md`, `skills/…`, `knowledge/…`, `mcp.json`): exported to a
 * folder or a .zip on this computer, or imported from one, showing what the server applied and ignored.
 * On screen it is "the agent's setup": "bundle" is the API's word, not a person's.
 */
export function BundleSection(props: { agentId: string; config: AgentConfiguration }) {
  const { agentId, config } = props;
  const base = `~/AgentDesk/${(config.name ?? 'agent').replace(/[\\/:*?"<>|]/g, '-')} export`;
  const [kind, setKind] = useState<'folder' | 'zip'>('zip');
  const [exportPath, setExportPath] = useState(`${base}.zip`);
  const [importPath, setImportPath] = useState(`${base}.zip`);
  const [busy, setBusy] = useState(false);
  const [exported, setExported] = useState('');
  const [imported, setImported] = useState<AppliedBundle | null>(null);
  const [problem, setProblem] = useState('');
  const [confirming, setConfirming] = useState(false);

  const changeKind = (next: 'folder' | 'zip') => {
    setKind(next);
    setExportPath(next === 'zip' ? `${base}.zip` : base);
  };

  const doExport = async () => {
    setBusy(true);
    setProblem('');
    const result = await desk().exportBundle(agentId, { kind, path: exportPath });
    setBusy(false);
    if (!result.ok) return setProblem(errorWords(result.error));
    setExported(`Wrote ${result.value.files} files to ${result.value.path}.`);
  };

  const doImport = async () => {
    setBusy(true);
    setProblem('');
    setImported(null);
    const result = await desk().importBundle(agentId, importPath);
    setBusy(false);
    if (!result.ok) return setProblem(errorWords(result.error));
    setImported(result.value);
  };

  return (
    <SectionFrame
      section="bundle"
      about={
        config.storage === 'bundle'
          ? 'The service keeps this agent as a set of files: its instructions, skills, knowledge and MCP servers. Export them to keep a copy or change them, and import them back.'
          : 'The whole agent in one folder or .zip file: its instructions, skills, knowledge and MCP servers, to keep a copy or move it elsewhere.'
      }
    >
      <form
        className="studio-form"
        aria-label="Export the agent"
        onSubmit={(event) => {
          event.preventDefault();
          void doExport();
        }}
      >
        <h3>Export</h3>
        <fieldset className="studio-choice inline">
          <legend>As</legend>
          <label>
            <input
              type="radio"
              name="bundle-kind"
              checked={kind === 'zip'}
              onChange={() => changeKind('zip')}
            />{' '}
            A .zip file
          </label>
          <label>
            <input
              type="radio"
              name="bundle-kind"
              checked={kind === 'folder'}
              onChange={() => changeKind('folder')}
            />{' '}
            A folder
          </label>
        </fieldset>
        <label htmlFor="bundle-export-path">Where on this computer</label>
        <input id="bundle-export-path" value={exportPath} onChange={(e) => setExportPath(e.target.value)} />
        <div className="studio-actions">
          <button type="submit" className="primary" disabled={busy || !exportPath.trim()}>
            Export
          </button>
        </div>
        {exported ? <p role="status">{exported}</p> : null}
      </form>

      <form
        className="studio-form"
        aria-label="Import an agent"
        onSubmit={(event) => {
          event.preventDefault();
          setConfirming(true);
        }}
      >
        <h3>Import</h3>
        <label htmlFor="bundle-import-path">A folder or .zip exported from an agent, on this computer</label>
        <input id="bundle-import-path" value={importPath} onChange={(e) => setImportPath(e.target.value)} />
        <p className="studio-help">
          The import replaces the agent’s whole setup: what it lacks is removed from the agent. Each file may
          be at most 10 MB; that is checked before anything is sent.
        </p>
        <div className="studio-actions">
          <button type="submit" disabled={busy || !importPath.trim()}>
            Import
          </button>
        </div>
      </form>
      {problem ? (
        <p className="field-problem" role="alert">
          {problem}
        </p>
      ) : null}
      {imported ? (
        <div className="studio-outcome saved" role="status" aria-label="Import result">
          <p>
            <span className="studio-label">Applied:</span>{' '}
            {imported.applied.length ? imported.applied.join(', ') : 'nothing'}
          </p>
          <p>
            <span className="studio-label">Ignored:</span>{' '}
            {imported.ignored.length ? imported.ignored.join(', ') : 'nothing'}
          </p>
          {imported.note ? (
            <p>
              <span className="studio-label">Note from the service:</span> {imported.note}
            </p>
          ) : null}
        </div>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title="Replace the agent’s setup?"
          confirmLabel="Import and replace"
          danger
          onConfirm={() => {
            setConfirming(false);
            void doImport();
          }}
          onCancel={() => setConfirming(false)}
        >
          <p>
            The imported files become the agent’s whole setup: instructions, skills, knowledge and MCP servers
            they lack are removed from {config.name ?? 'the agent'}. Export first if you may want them back.
          </p>
        </ConfirmDialog>
      ) : null}
    </SectionFrame>
  );
}
