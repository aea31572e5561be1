/**
 * mcp.json as the person edits it: `{ "servers": [...] }`, checked before anything is sent, so an
 * invalid file never replaces the agent's MCP servers.
 */
import { McpPutBody } from '../../../shared/api';
import { RemoteError } from '../plan/remote-side';

/** Validates mcp.json before upload, naming what is wrong in plain words. */
export function parseMcpFile(bytes: Uint8Array) {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (error) {
    throw invalidMcp(`it is not valid JSON (${(error as Error).message})`);
  }
  const parsed = McpPutBody.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidMcp(`${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data.servers;
}

function invalidMcp(why: string): RemoteError {
  return new RemoteError(
    `mcp.json was not uploaded because ${why}. The agent keeps its previous MCP servers.`,
    400,
    undefined,
    true,
  );
}
