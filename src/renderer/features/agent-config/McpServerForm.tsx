import { useRef, useState } from 'react';
import { isLocalMcpUrl, type McpServerInput } from '../../../shared/api';
import { mcpNameProblem } from '../../model/mcp-servers';
import { PairsEditor } from './PairsEditor';

type Pairs = [string, string][];

/** One MCP server being added or edited, in either shape: remote (url) or local command. */
export function McpServerForm(props: {
  initial?: McpServerInput;
  /** The other servers' names: a name already in the list is refused. */
  taken: readonly string[];
  /** Saves the list with this server; resolves false when it was refused (the form stays). */
  onDone(server: McpServerInput): Promise<unknown>;
  onCancel(): void;
  saving?: boolean;
}) {
  const initial = props.initial;
  const local = !!initial && 'command' in initial;
  const [shape, setShape] = useState<'remote' | 'local'>(local ? 'local' : 'remote');
  const [name, setName] = useState(initial?.name ?? '');
  const [nameCheck, setNameCheck] = useState<ReturnType<typeof mcpNameProblem>>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const [type, setType] = useState<'http' | 'sse'>(
    initial && 'type' in initial && initial.type === 'sse' ? 'sse' : 'http',
  );
  const [url, setUrl] = useState(initial && 'url' in initial ? String(initial.url ?? '') : '');
  const [headers, setHeaders] = useState<Pairs>(
    Object.entries((initial && 'headers' in initial ? initial.headers : undefined) ?? {}),
  );
  const [command, setCommand] = useState(
    initial && 'command' in initial ? String(initial.command ?? '') : '',
  );
  const [args, setArgs] = useState(
    initial && 'args' in initial && Array.isArray(initial.args) ? initial.args.join('\n') : '',
  );
  const [env, setEnv] = useState<Pairs>(
    Object.entries((initial && 'env' in initial ? initial.env : undefined) ?? {}),
  );

  const build = (): McpServerInput => {
    const map = (pairs: Pairs) =>
      Object.fromEntries(pairs.filter(([k]) => k.trim()).map(([k, v]) => [k.trim(), v]));
    if (shape === 'local') {
      const list = args
        .split('\n')
        .map((a: string) => a.trim())
        .filter(Boolean);
      const envMap = map(env);
      return {
        name: name.trim(),
        command: command.trim(),
        ...(list.length ? { args: list } : {}),
        ...(Object.keys(envMap).length ? { env: envMap } : {}),
      };
    }
    const headerMap = map(headers);
    return {
      name: name.trim(),
      type,
      url: url.trim(),
      ...(Object.keys(headerMap).length ? { headers: headerMap } : {}),
    };
  };

  return (
    <form
      className="studio-form studio-subform"
      aria-label={initial ? `Edit ${initial.name}` : 'New MCP server'}
      onSubmit={(event) => {
        event.preventDefault();
        // The name is checked here, in words, so a bad one never enters the list.
        const check = mcpNameProblem(name.trim(), props.taken);
        setNameCheck(check);
        if (check) return nameInput.current?.focus();
        void props.onDone(build());
      }}
    >
      <fieldset className="studio-choice inline">
        <legend>Kind</legend>
        <label>
          <input
            type="radio"
            name="mcp-shape"
            checked={shape === 'remote'}
            onChange={() => setShape('remote')}
          />{' '}
          Remote (http or sse)
        </label>
        <label>
          <input
            type="radio"
            name="mcp-shape"
            checked={shape === 'local'}
            onChange={() => setShape('local')}
          />{' '}
          Local command
        </label>
      </fieldset>
      <label htmlFor="mcp-name">Name</label>
      <input
        id="mcp-name"
        ref={nameInput}
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          setNameCheck(null);
        }}
        aria-invalid={!!nameCheck}
        aria-describedby={nameCheck ? 'mcp-name-problem mcp-name-help' : 'mcp-name-help'}
      />
      <p id="mcp-name-help" className="studio-help">
        Lowercase letters, digits, - and _, starting with a letter or digit, up to 41 characters.
      </p>
      {nameCheck ? (
        <p id="mcp-name-problem" className="error-text" role="alert">
          {nameCheck.problem}{' '}
          {nameCheck.suggestion ? (
            <button
              type="button"
              className="link"
              onClick={() => {
                setName(nameCheck.suggestion ?? name);
                setNameCheck(null);
                nameInput.current?.focus();
              }}
            >
              Use “{nameCheck.suggestion}”
            </button>
          ) : null}
        </p>
      ) : null}
      {shape === 'remote' ? (
        <>
          <label htmlFor="mcp-url">URL</label>
          <input
            id="mcp-url"
            value={url}
            placeholder="https://"
            aria-describedby="mcp-url-help"
            onChange={(e) => setUrl(e.target.value)}
          />
          <p id="mcp-url-help" className="studio-help">
            {isLocalMcpUrl(url.trim())
              ? 'For local development: localhost is the computer the agent runs on (with This computer, this one), and the connection is not encrypted. Another server may refuse plain http.'
              : 'https, or plain http to localhost or 127.0.0.1 while you develop a server.'}
          </p>
          <label htmlFor="mcp-type">Transport</label>
          <select
            id="mcp-type"
            value={type}
            onChange={(e) => setType(e.target.value === 'sse' ? 'sse' : 'http')}
          >
            <option value="http">http (streamable)</option>
            <option value="sse">sse</option>
          </select>
          <PairsEditor
            label="Headers"
            namePlaceholder="Authorization"
            pairs={headers}
            onChange={setHeaders}
          />
        </>
      ) : (
        <>
          <label htmlFor="mcp-command">Command</label>
          <input
            id="mcp-command"
            value={command}
            placeholder="npx"
            onChange={(e) => setCommand(e.target.value)}
          />
          <label htmlFor="mcp-args">Arguments (one per line)</label>
          <textarea id="mcp-args" rows={3} value={args} onChange={(e) => setArgs(e.target.value)} />
          <PairsEditor label="Environment" namePlaceholder="API_KEY" pairs={env} onChange={setEnv} />
        </>
      )}
      <div className="studio-actions">
        <button type="submit" className="primary" disabled={props.saving}>
          {initial ? 'Save changes' : 'Add server'}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
