import {
  AgentConfig,
  apiRoutes,
  Bundle,
  BundlePostResult,
  FilePutResult,
  FilesListing,
  McpPutResult,
  McpStatusResponse,
  McpResponse,
  MsgappNumbers,
  RestartResult,
  SkillPutResult,
  SkillsResponse,
  TryResult,
  type AgentConfigPatch,
  type McpServer,
  type SkillPutBody,
  type TryBodyInput,
} from '../../shared/api';
import { json, none, raw, type ApiRequest, type ApiResult, type CallOptions } from './api-request';
import { NOT_TAKEN_BY_MACHINE, statusSentence } from './api-error';
import {
  agentConfigFromWire,
  agentConfigPatchToWire,
  appliedBundleFromWire,
  installedSkillFromWire,
  msgappNumbersFromWire,
  restartFromWire,
  savedAgentConfigFromWire,
  savedMcpServersFromWire,
  mcpStatusFromWire,
  writtenFileFromWire,
} from './agent-config-words';
import { err, ok } from '../common/result';

const STATUS_502 = statusSentence(502);

const numbers = MsgappNumbers.transform(msgappNumbersFromWire);

/** Bytes of a workspace file, or its listing when the path is a folder or the server lacks the bytes extension. */
export type WorkspaceRead =
  | { kind: 'bytes'; bytes: Uint8Array; contentType: string; etag?: string }
  | { kind: 'listing'; listing: FilesListing };

/** Agent configuration (spec section; an OAuth token with the scope, or the agent's own gat_ token). */
export function agentConfigApi(http: ApiRequest) {
  const r = apiRoutes;
  return {
    getAgentConfig: (
      id: string,
      query: { full?: boolean; fields?: readonly string[] } = {},
      call?: CallOptions,
    ) =>
      http.call(
        r.getAgent,
        { id },
        {
          read: json(AgentConfig.transform(agentConfigFromWire)),
          query: { full: query.full ? '1' : undefined, fields: query.fields?.join(',') },
        },
        call,
      ),
    updateAgentConfig: async (id: string, patch: AgentConfigPatch, call?: CallOptions) => {
      const result = await http.call(
        r.patchAgent,
        { id },
        { read: json(AgentConfig.transform(savedAgentConfigFromWire)), json: agentConfigPatchToWire(patch) },
        call,
      );
      // A 502 without the server's own words is the spec's "saved, but the machine did not take it".
      if (!result.ok && result.error.status === 502 && result.error.message === STATUS_502)
        return err({ ...result.error, message: NOT_TAKEN_BY_MACHINE });
      return result;
    },

    listWorkspace: (id: string, path = '', call?: CallOptions) =>
      http.call(r.getAgentFiles, { id, path }, { read: json(FilesListing) }, call),
    /** Bytes of a workspace file (service extension, `Accept: application/octet-stream`), or a listing. */
    readWorkspaceFile: async (
      id: string,
      path: string,
      call?: CallOptions,
    ): Promise<ApiResult<WorkspaceRead>> => {
      const response = await http.call(
        r.getAgentFiles,
        { id, path },
        { read: raw, accept: 'application/octet-stream' },
        call,
      );
      if (!response.ok) return response;
      const contentType = response.value.headers.get('content-type') ?? '';
      if (!contentType.includes('application/json')) {
        const bytes = new Uint8Array(await response.value.arrayBuffer());
        const etag = response.value.headers.get('etag') ?? undefined;
        return ok({ kind: 'bytes', bytes, contentType, ...(etag ? { etag } : {}) });
      }
      const listing = await http.read(response.value, json(FilesListing));
      return listing.ok ? ok({ kind: 'listing', listing: listing.value }) : listing;
    },
    writeWorkspaceFile: (id: string, path: string, bytes: Uint8Array, call?: CallOptions) =>
      http.call(
        r.putAgentFile,
        { id, path },
        {
          read: json(FilePutResult.transform(writtenFileFromWire)),
          bytes: { data: bytes, contentType: 'application/octet-stream' },
        },
        call,
      ),
    deleteWorkspaceFile: (id: string, path: string, call?: CallOptions) =>
      http.call(r.deleteAgentFile, { id, path }, { read: none }, call),

    listSkills: (id: string, call?: CallOptions) =>
      http.call(r.getAgentSkills, { id }, { read: json(SkillsResponse) }, call),
    installSkill: (id: string, slug: string, body: SkillPutBody, call?: CallOptions) =>
      http.call(
        r.putAgentSkill,
        { id, slug },
        { read: json(SkillPutResult.transform(installedSkillFromWire)), json: body },
        call,
      ),
    deleteSkill: (id: string, slug: string, call?: CallOptions) =>
      http.call(r.deleteAgentSkill, { id, slug }, { read: none }, call),

    getMcpServers: (id: string, call?: CallOptions) =>
      http.call(r.getAgentMcp, { id }, { read: json(McpResponse) }, call),
    /** Replaces the ENTIRE list and restarts the agent. */
    setMcpServers: (id: string, servers: McpServer[], call?: CallOptions) =>
      http.call(
        r.putAgentMcp,
        { id },
        { read: json(McpPutResult.transform(savedMcpServersFromWire)), json: { servers } },
        call,
      ),

    /** Our extension `getAgentMcpStatus`: whether each server answers, and its tools. */
    getMcpStatus: (id: string, call?: CallOptions) =>
      http.call(
        r.getAgentMcpStatus,
        { id },
        { read: json(McpStatusResponse.transform(mcpStatusFromWire)) },
        call,
      ),

    getBundle: (id: string, call?: CallOptions) =>
      http.call(r.getAgentBundle, { id }, { read: json(Bundle) }, call),
    applyBundle: (id: string, bundle: Bundle, call?: CallOptions) =>
      http.call(
        r.postAgentBundle,
        { id },
        { read: json(BundlePostResult.transform(appliedBundleFromWire)), json: bundle, resendable: true },
        call,
      ),
    restartAgent: (id: string, call?: CallOptions) =>
      http.call(r.restartAgent, { id }, { read: json(RestartResult.transform(restartFromWire)) }, call),
    tryAgent: (id: string, body: TryBodyInput, call?: CallOptions) =>
      http.call(r.tryAgent, { id }, { read: json(TryResult), json: body }, call),

    getMsgappNumbers: (id: string, call?: CallOptions) =>
      http.call(r.getAgentMsgapp1, { id }, { read: json(numbers) }, call),
    /** Pairs exactly these numbers with the agent, taking them from any other agent. */
    setMsgappNumbers: (id: string, chosen: string[], call?: CallOptions) =>
      http.call(
        r.putAgentMsgapp1,
        { id },
        { read: json(numbers), json: { numbers: chosen }, resendable: true },
        call,
      ),
  };
}
