import {
  RequestError,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type WriteTextFileRequest,
  type WriteTextFileResponse,
} from '@agentclientprotocol/sdk/unstable';
import { readWorkspaceText, writeWorkspaceFile } from '../workspace/workspace-io';
import { WorkspacePathError } from '../workspace/workspace-paths';

/** Inside the workspace with no link on the way (folder, file or dangling link), else invalid params. */
function outside(error: unknown, path: string): RequestError | null {
  return error instanceof WorkspacePathError
    ? RequestError.invalidParams({ path }, `the path is outside the agent workspace: ${error.message}`)
    : null;
}

/** ACP `fs/read_text_file`: a text file of the agent's workspace, or the lines asked for. */
export async function readTextFile(
  workspace: string,
  params: ReadTextFileRequest,
): Promise<ReadTextFileResponse> {
  let content: string;
  try {
    content = await readWorkspaceText(workspace, params.path);
  } catch (error) {
    throw outside(error, params.path) ?? RequestError.resourceNotFound(params.path);
  }
  if (params.line == null && params.limit == null) return { content };
  const start = Math.max(1, params.line ?? 1) - 1;
  const lines = content.split('\n');
  return {
    content: lines.slice(start, params.limit == null ? undefined : start + params.limit).join('\n'),
  };
}

/** ACP `fs/write_text_file`: writes a file of the agent's workspace, never through a link. */
export async function writeTextFile(
  workspace: string,
  params: WriteTextFileRequest,
): Promise<WriteTextFileResponse> {
  try {
    await writeWorkspaceFile(workspace, params.path, params.content);
  } catch (error) {
    throw outside(error, params.path) ?? error;
  }
  return {};
}
