/**
 * The agent-config area: an agent's configuration (GET and PATCH), workspace files, skills, MCP servers,
 * restart, the try panel, the bundle and msgapp1 numbers.
 * Bytes travel as base64 so every carrier moves plain JSON.
 */
import type {
  AgentConfigPatch,
  AgentConfigQuery,
  AgentConfiguration,
  AgentRestart,
  AppliedBundle,
  FilesListing,
  InstalledSkill,
  McpResponse,
  McpServerInput,
  McpServerStatus,
  MsgappNumberList,
  SavedAgentConfiguration,
  SavedMcpServers,
  SkillPutBody,
  SkillsResponse,
  TryBodyInput,
  TryResult,
  WrittenWorkspaceFile,
} from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

/** A workspace file's bytes, or `listing-only` when the server has no byte route (the spec's own). */
export type WorkspaceFileContent =
  { kind: 'bytes'; contentBase64: string; contentType: string } | { kind: 'listing-only' };

/** Where to write an exported bundle: a folder (one file per path) or a `.zip` file. */
export interface BundleExportTarget {
  kind: 'folder' | 'zip';
  /** Absolute path, or starting with `~/`. */
  path: string;
}

export interface BundleExported {
  /** Where it was written, with `~` expanded. */
  path: string;
  files: number;
}

export interface AgentConfigMethods {
  getAgentConfig(agentId: string, query?: AgentConfigQuery): Promise<DeskResult<AgentConfiguration>>;
  patchAgentConfig(agentId: string, patch: AgentConfigPatch): Promise<DeskResult<SavedAgentConfiguration>>;
  listWorkspaceFiles(agentId: string, path?: string): Promise<DeskResult<FilesListing>>;
  readWorkspaceFile(agentId: string, path: string): Promise<DeskResult<WorkspaceFileContent>>;
  /** PUT files; over 10 MB is refused before it leaves the host. */
  writeWorkspaceFile(
    agentId: string,
    path: string,
    contentBase64: string,
  ): Promise<DeskResult<WrittenWorkspaceFile>>;
  deleteWorkspaceFile(agentId: string, path: string): Promise<DeskResult<void>>;
  listSkills(agentId: string): Promise<DeskResult<SkillsResponse>>;
  installSkill(agentId: string, slug: string, body: SkillPutBody): Promise<DeskResult<InstalledSkill>>;
  deleteSkill(agentId: string, slug: string): Promise<DeskResult<void>>;
  getMcpServers(agentId: string): Promise<DeskResult<McpResponse>>;
  /** Replaces the whole list; the answer says whether the machine was restarted. */
  setMcpServers(agentId: string, servers: McpServerInput[]): Promise<DeskResult<SavedMcpServers>>;
  /** Our extension (where `serverExtensions` lists `getAgentMcpStatus`): whether each server answers. */
  getMcpStatus(agentId: string): Promise<DeskResult<McpServerStatus[]>>;
  restartAgent(agentId: string): Promise<DeskResult<AgentRestart>>;
  /** POST try, waiting up to 180 s; `tryId` lets `cancelTry` stop waiting (code `cancelled`). */
  tryAgent(agentId: string, body: TryBodyInput, tryId: string): Promise<DeskResult<TryResult>>;
  cancelTry(tryId: string): Promise<DeskResult<boolean>>;
  exportBundle(agentId: string, target: BundleExportTarget): Promise<DeskResult<BundleExported>>;
  /** Reads a bundle folder or `.zip` on this computer and sends it (10 MB per file, checked first). */
  importBundle(agentId: string, path: string): Promise<DeskResult<AppliedBundle>>;
  getMsgappNumbers(agentId: string): Promise<DeskResult<MsgappNumberList>>;
  setMsgappNumbers(agentId: string, numbers: string[]): Promise<DeskResult<MsgappNumberList>>;
}

export const agentConfigArea = bridgeArea<AgentConfigMethods>()({
  calls: [
    'getAgentConfig',
    'patchAgentConfig',
    'listWorkspaceFiles',
    'readWorkspaceFile',
    'writeWorkspaceFile',
    'deleteWorkspaceFile',
    'listSkills',
    'installSkill',
    'deleteSkill',
    'getMcpServers',
    'setMcpServers',
    'getMcpStatus',
    'restartAgent',
    'tryAgent',
    'cancelTry',
    'exportBundle',
    'importBundle',
    'getMsgappNumbers',
    'setMsgappNumbers',
  ],
});
