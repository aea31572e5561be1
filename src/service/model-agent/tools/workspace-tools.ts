import type { AgentTool } from './agent-tool';
import { deleteFileTool } from './delete-file';
import { editFileTool } from './edit-file';
import { listFilesTool } from './list-files';
import { readFileTool } from './read-file';
import { searchTextTool } from './search-text';
import { writeFileTool } from './write-file';

/** The workspace tools, all confined to `root` (the agent's workspace). */
export function workspaceTools(root: string): AgentTool<never>[] {
  return [
    listFilesTool(root),
    readFileTool(root),
    searchTextTool(root),
    writeFileTool(root),
    editFileTool(root),
    deleteFileTool(root),
  ] as AgentTool<never>[];
}
