import { showDirectionControls } from '../../model/bidi-controls';
import type { McpCheck } from './use-mcp-status';

/** One line under a saved MCP server: checking, connected with its tools, or why it could not connect. */
export function McpServerState(props: { state: McpCheck | undefined }) {
  const { state } = props;
  if (!state) return <p className="muted small-text">Not saved yet.</p>;
  if (state === 'checking') return <p className="muted small-text mcp-state">Checking the connection…</p>;
  if ('failed' in state)
    return <p className="muted small-text mcp-state">Could not check the connection: {state.failed}</p>;
  if (!state.connected)
    return (
      <p className="error-text small-text mcp-state">
        Could not connect: {showDirectionControls(state.problem ?? 'no reason given.')}
      </p>
    );
  const count = state.tools.length;
  return (
    <p className="small-text mcp-state">
      Connected · {count === 0 ? 'no tools' : `${count} ${count === 1 ? 'tool' : 'tools'}: `}
      {showDirectionControls(state.tools.join(', '))}
    </p>
  );
}
