import { useEffect, useState } from 'react';
import { LIMITS, type McpServerInput } from '../../../shared/api';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { checkMcpList, maskSecret, parseMcpImport } from '../../model/mcp-servers';
import { useAgentConfigStore } from '../../stores/agent-config-store';
import { McpServerForm } from './McpServerForm';
import { SaveOutcome } from './SaveOutcome';
import { SaveDiscard } from './SectionForm';
import { SectionFrame } from './SectionFrame';
import { McpServerState } from './McpServerState';
import { useDraft } from './use-draft';
import { useMcpStatus } from './use-mcp-status';
import { showDirectionControls } from '../../model/bidi-controls';

/**
 * The agent's MCP servers. Adding or editing one saves the list at once (one step); removals and imports
 * stay local until "Save the list". Every save replaces the whole list (as the API does) after checking
 * every rule, and says whether the agent restarted.
 */
export function McpSection(props: { agentId: string }) {
  const { agentId } = props;
  const [loaded, setLoaded] = useState<McpServerInput[] | null>(null);
  const [loadError, setLoadError] = useState('');
  const { draft, setDraft, dirty, reset } = useDraft('mcp', loaded ?? []);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [importText, setImportText] = useState('');
  const [importOpen, setImportOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  // Our extension: whether each saved server answers (checked after loading and after each save).
  const states = useMcpStatus(agentId, loaded);

  useEffect(() => {
    let live = true;
    void desk()
      .getMcpServers(agentId)
      .then((r) => {
        if (!live) return;
        if (r.ok) setLoaded(r.value.servers);
        else {
          setLoadError(errorWords(r.error));
          useAgentConfigStore.getState().noteError('mcp', r.error);
        }
      });
    return () => {
      live = false;
    };
  }, [agentId]);

  /** Saves `list` as the whole list; false when a rule or the server refused it (said in the section). */
  const save = async (list: McpServerInput[]): Promise<boolean> => {
    const checked = checkMcpList(list);
    if (!checked.ok) {
      setProblems(checked.problems);
      return false;
    }
    setProblems([]);
    setSaving(true);
    const result = await desk().setMcpServers(agentId, list);
    setSaving(false);
    const store = useAgentConfigStore.getState();
    if (!result.ok) {
      store.noteError('mcp', result.error);
      return false;
    }
    setLoaded(result.value.servers);
    store.setDirty('mcp', false);
    store.setOutcome({
      section: 'mcp',
      kind: 'saved',
      message: `Saved ${result.value.servers.length} server${result.value.servers.length === 1 ? '' : 's'}. ${
        result.value.restarted
          ? 'The agent was restarted to load them.'
          : 'The agent was not restarted; they load at its next restart.'
      }`,
    });
    return true;
  };

  const importServers = (text: string) => {
    const parsed = parseMcpImport(text);
    if (!parsed.ok) return setProblems([parsed.problem]);
    const names = new Set(parsed.servers.map((s) => s.name));
    // An imported server replaces one of the same name; the rest is kept.
    setDraft([...draft.filter((s) => !names.has(s.name)), ...parsed.servers]);
    setImportOpen(false);
    setImportText('');
    const checked = checkMcpList([...draft.filter((s) => !names.has(s.name)), ...parsed.servers]);
    setProblems(checked.ok ? [] : checked.problems);
  };

  if (loaded === null)
    return (
      <SectionFrame section="mcp">
        {loadError ? (
          <p className="error-text">{loadError}</p>
        ) : (
          <p className="muted">Loading the servers…</p>
        )}
        <SaveOutcome section="mcp" />
      </SectionFrame>
    );

  return (
    <SectionFrame
      section="mcp"
      about={`Tools from MCP servers: remote ones over https (plain http to localhost while you develop one), or commands run in the agent's workspace. At most ${LIMITS.mcpServersMax}. Saving replaces the whole list and restarts the agent; each saved server then says whether it connected.`}
    >
      {draft.length === 0 ? <p className="muted">No MCP servers yet.</p> : null}
      <ul className="studio-list" aria-label="MCP servers">
        {draft.map((server, index) => (
          <li key={`${server.name}-${index}`}>
            <div>
              <strong>{server.name || '(no name)'}</strong>{' '}
              <span className="studio-tag">
                {'command' in server ? 'local' : ('type' in server && server.type) || 'http'}
              </span>
              <p className="muted small-text">{showDirectionControls(describe(server))}</p>
              {states ? <McpServerState state={states.get(server.name)} /> : null}
            </div>
            <div className="studio-row-actions">
              <button
                type="button"
                className="small"
                onClick={() => setEditing(index)}
                aria-label={`Edit ${server.name}`}
              >
                Edit
              </button>
              <button
                type="button"
                className="small"
                aria-label={`Remove ${server.name}`}
                onClick={() => {
                  const next = draft.filter((_, i) => i !== index);
                  setDraft(next);
                  if (problems.length > 0) {
                    const checked = checkMcpList(next);
                    setProblems(checked.ok ? [] : checked.problems);
                  }
                }}
              >
                Remove
              </button>
            </div>
          </li>
        ))}
      </ul>
      {editing !== null ? (
        <McpServerForm
          key={String(editing)}
          {...(editing === 'new' ? {} : { initial: draft[editing] })}
          taken={draft.filter((_, i) => i !== editing).map((s) => s.name)}
          saving={saving}
          onCancel={() => {
            setEditing(null);
            setProblems([]);
          }}
          onDone={async (server) => {
            // One step: the list with this server is saved now; a refused one stays in its form.
            const next =
              editing === 'new' ? [...draft, server] : draft.map((s, i) => (i === editing ? server : s));
            if (await save(next)) setEditing(null);
          }}
        />
      ) : (
        <div className="studio-actions">
          <button
            type="button"
            disabled={draft.length >= LIMITS.mcpServersMax}
            onClick={() => setEditing('new')}
          >
            Add a server
          </button>
          <button type="button" aria-expanded={importOpen} onClick={() => setImportOpen(!importOpen)}>
            Import mcp.json
          </button>
        </div>
      )}
      {importOpen ? (
        <div className="studio-subform">
          <label htmlFor="mcp-import">
            Paste an mcp.json ({'{"mcpServers": {…}}'} or {'{"servers": […]}'})
          </label>
          <textarea
            id="mcp-import"
            rows={6}
            value={importText}
            onChange={(e) => setImportText(e.target.value)}
          />
          <div className="studio-actions">
            <button type="button" disabled={!importText.trim()} onClick={() => importServers(importText)}>
              Import
            </button>
            <label className="file-button">
              Choose a file…
              <input
                type="file"
                accept=".json,application/json"
                className="visually-hidden"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file) void file.text().then(importServers);
                  e.target.value = '';
                }}
              />
            </label>
          </div>
        </div>
      ) : null}
      {problems.length > 0 ? (
        <ul className="field-problem" role="alert" aria-label="Problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      <SaveDiscard
        saveLabel="Save the list"
        dirty={dirty}
        saving={saving}
        onSave={() => void save(draft)}
        onDiscard={() => {
          reset();
          setProblems([]);
        }}
      />
      <SaveOutcome section="mcp" />
    </SectionFrame>
  );
}

/** One line per server, secrets masked. */
function describe(server: McpServerInput): string {
  if ('command' in server) {
    const env = Object.entries(server.env ?? {}).map(([k, v]) => `${k}=${maskSecret(v)}`);
    return [[server.command, ...(Array.isArray(server.args) ? server.args : [])].join(' '), ...env].join(
      ' · ',
    );
  }
  const headers = Object.entries(server.headers ?? {}).map(([k, v]) => `${k}: ${maskSecret(v)}`);
  return [server.url, ...headers].join(' · ');
}
