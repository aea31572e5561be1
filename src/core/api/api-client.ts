import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  AgentConfig,
  Archivo,
  Bundle,
  BundlePostResult,
  CancelResult,
  Compartida,
  ConversationCreated,
  ConversationResponse,
  ConversationsResponse,
  DeletedAccount,
  describeZodError,
  FileDeletedResult,
  FilePutResult,
  FilesListing,
  FilesResponse,
  FileUrlResponse,
  McpPutResult,
  McpResponse,
  MeAgentsResponse,
  PermissionResult,
  PostMessageAccepted,
  RestartResult,
  ScheduleCreated,
  ScheduleListResponse,
  SkillPutResult,
  SkillsResponse,
  SttResult,
  TryResult,
} from '../../shared/api';
import type {
  McpServer,
  PatchAgentBody,
  PermissionBody,
  PostMessageBodyInput,
  SkillPutBody,
  TryBodyInput,
} from '../../shared/api';
import type { AccessTokenSource } from '../auth/access-token-source';
import type { Logger } from '../auth/logger';
import { silentLogger } from '../auth/logger';
import { apiErrorFromResponse, cancelledError, networkError } from './api-error';
import type { ApiError } from './api-error';
import { err, ok, realSleep } from './result';
import type { FetchLike, Result, Sleep } from './result';
import { backoffDelay, parseRetryAfter } from './retry-after';

/**
 * The typed client of the v2 API. Every method returns a Result: the parsed body (checked
 * against the shared zod schemas) or an ApiError. Retries: 401 refreshes the token once;
 * 429 and 503 wait for Retry-After (capped attempts); network failures are retried only
 * where resending is safe (reads, idempotent writes, and POST messages with its turnId).
 */

export type ApiResult<T> = Result<T, ApiError>;

export interface ApiClientOptions {
  /** e.g. `http://127.0.0.1:8787` */
  baseUrl: string;
  /** The token manager (OAuth) or a static agent token source. */
  auth: AccessTokenSource;
  fetch?: FetchLike;
  sleep?: Sleep;
  /** Tries per request counting the first, for 429/503/network retries. Default 4. */
  maxAttempts?: number;
  /** Longest single wait between tries; a longer Retry-After gives up instead. Default 60 s. */
  maxRetryDelayMs?: number;
  random?: () => number;
  logger?: Logger;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Extra request headers, e.g. `If-Match` for the service's conditional file writes. */
  headers?: Record<string, string>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How to read a successful response. */
type Reader<T> =
  | { kind: 'json'; schema: z.ZodType<T> }
  /** Bodies the spec does not show: anything 2xx is success. */
  | { kind: 'none' }
  | { kind: 'raw' };

interface RequestSpec<T> {
  method: Method;
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  bytes?: { data: Uint8Array; contentType: string };
  accept?: string;
  headers?: Record<string, string> | undefined;
  read: Reader<T>;
  /** Safe to send again after a network failure. */
  resendable: boolean;
  signal?: AbortSignal | undefined;
}

export interface SendMessageInput extends Omit<PostMessageBodyInput, 'turnId'> {
  /** Idempotency key; generated once with crypto.randomUUID when absent, and reused by every retry. */
  turnId?: string;
}

/** Bytes of a workspace file, or its listing when the path is a folder or the server lacks the bytes extension. */
export type WorkspaceRead =
  | { kind: 'bytes'; bytes: Uint8Array; contentType: string; etag?: string }
  | { kind: 'listing'; listing: FilesListing };

const seg = (value: string): string => encodeURIComponent(value);

function workspacePath(path: string): Result<string, ApiError> {
  const parts = path.split('/').filter((part) => part !== '');
  if (parts.some((part) => part === '..' || part === '.')) {
    return err({ code: 'invalid_path', status: 0, message: 'File paths must stay inside the workspace.' });
  }
  return { ok: true, value: parts.map(seg).join('/') };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function createApiClient(options: ApiClientOptions) {
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const sleep = options.sleep ?? realSleep;
  const maxAttempts = options.maxAttempts ?? 4;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  const logger = options.logger ?? silentLogger;
  const base = options.baseUrl.replace(/\/+$/, '');

  function urlFor(path: string, query?: RequestSpec<unknown>['query']): string {
    const url = new URL(base + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.href;
  }

  async function request<T>(spec: RequestSpec<T>): Promise<ApiResult<T>> {
    const url = urlFor(spec.path, spec.query);
    // Serialised once, so every retry sends exactly the same body (and the same turnId).
    const body = spec.json !== undefined ? JSON.stringify(spec.json) : spec.bytes?.data;
    const contentType = spec.json !== undefined ? 'application/json' : spec.bytes?.contentType;

    const initial = await options.auth.getAccessToken();
    if (!initial.ok) return err({ code: 'signed_out', status: 401, message: initial.error.message });
    let token = initial.value;
    let refreshed = false;

    for (let attempt = 1; ; attempt += 1) {
      if (spec.signal?.aborted) return err(cancelledError);
      const headers: Record<string, string> = {
        ...spec.headers,
        authorization: `Bearer ${token}`,
        accept: spec.accept ?? 'application/json',
      };
      if (contentType) headers['content-type'] = contentType;

      let response: Response;
      try {
        response = await fetchImpl(url, {
          method: spec.method,
          headers,
          ...(body !== undefined ? { body: body as NonNullable<RequestInit['body']> } : {}),
          ...(spec.signal ? { signal: spec.signal } : {}),
        });
      } catch (error) {
        if (spec.signal?.aborted) return err(cancelledError);
        if (!spec.resendable || attempt >= maxAttempts) return err(networkError(base, error));
        const wait = backoffDelay(attempt - 1, options.random ? { random: options.random } : {});
        logger.warn(`${spec.method} ${spec.path} failed to connect; retrying in ${wait} ms`);
        if (!(await pause(wait, spec.signal))) return err(cancelledError);
        continue;
      }

      logger.debug(`${spec.method} ${url} -> ${response.status}`);
      if (response.status === 401 && !refreshed) {
        await response.body?.cancel();
        refreshed = true;
        const next = await options.auth.handleUnauthorized(token);
        if (!next.ok) return err({ code: 'signed_out', status: 401, message: next.error.message });
        token = next.value;
        attempt -= 1; // the retry after a refresh is not a 429/503 attempt
        continue;
      }

      if ((response.status === 429 || response.status === 503) && attempt < maxAttempts) {
        const wait =
          parseRetryAfter(response.headers.get('retry-after')) ??
          backoffDelay(attempt - 1, options.random ? { random: options.random } : {});
        if (wait <= maxRetryDelayMs) {
          await response.body?.cancel();
          logger.info(`${spec.method} ${spec.path} answered ${response.status}; retrying in ${wait} ms`);
          if (!(await pause(wait, spec.signal))) return err(cancelledError);
          continue;
        }
      }

      if (!response.ok) return err(apiErrorFromResponse(response.status, await readBody(response)));
      return readSuccess(response, spec.read);
    }
  }

  async function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
    try {
      await sleep(ms, signal);
      return true;
    } catch {
      return false;
    }
  }

  async function readSuccess<T>(response: Response, reader: Reader<T>): Promise<ApiResult<T>> {
    if (reader.kind === 'none') {
      await response.body?.cancel();
      return ok(undefined as T);
    }
    if (reader.kind === 'raw') return ok(response as T);
    const body = await readBody(response);
    const parsed = reader.schema.safeParse(body);
    if (parsed.success) return ok(parsed.data);
    logger.warn(`Unexpected response shape from the service: ${describeZodError(parsed.error)}`);
    return err({
      code: 'invalid_response',
      status: response.status,
      message: 'The service sent a response AgentDesk could not read.',
      body,
    });
  }

  const json = <T>(schema: z.ZodType<T>): Reader<T> => ({ kind: 'json', schema });
  const none: Reader<void> = { kind: 'none' };
  const get = <T>(path: string, read: Reader<T>, call?: CallOptions, query?: RequestSpec<T>['query']) =>
    request<T>({
      method: 'GET',
      path,
      read,
      resendable: true,
      signal: call?.signal,
      headers: call?.headers,
      ...(query ? { query } : {}),
    });

  const me = '/api/v2/me';
  const conv = (agentId: string, sessionId: string): string =>
    `${me}/agents/${seg(agentId)}/conversations/${seg(sessionId)}`;
  const agent = (id: string): string => `/api/v2/agents/${seg(id)}`;

  return {
    baseUrl: base,

    // --- Account and agents ---------------------------------------------------------------
    listAgents: (call?: CallOptions) => get(`${me}/agents`, json(MeAgentsResponse), call),
    deleteAccount: (call?: CallOptions) =>
      request({
        method: 'DELETE',
        path: me,
        read: json(DeletedAccount),
        resendable: true,
        signal: call?.signal,
      }),

    // --- Conversations ----------------------------------------------------------------------
    listConversations: (agentId: string, call?: CallOptions) =>
      get(`${me}/agents/${seg(agentId)}/conversations`, json(ConversationsResponse), call),
    createConversation: (agentId: string, call?: CallOptions) =>
      request({
        method: 'POST',
        path: `${me}/agents/${seg(agentId)}/conversations`,
        read: json(ConversationCreated),
        resendable: false,
        signal: call?.signal,
      }),
    getConversation: (
      agentId: string,
      sessionId: string,
      query: { limit?: number } = {},
      call?: CallOptions,
    ) => get(conv(agentId, sessionId), json(ConversationResponse), call, { limit: query.limit }),
    renameConversation: (agentId: string, sessionId: string, title: string, call?: CallOptions) =>
      request<void>({
        method: 'PATCH',
        path: conv(agentId, sessionId),
        json: { title },
        read: none,
        resendable: true,
        signal: call?.signal,
      }),
    archiveConversation: (agentId: string, sessionId: string, call?: CallOptions) =>
      request<void>({
        method: 'DELETE',
        path: conv(agentId, sessionId),
        read: none,
        resendable: true,
        signal: call?.signal,
      }),

    getSharing: (agentId: string, sessionId: string, call?: CallOptions) =>
      get(`${conv(agentId, sessionId)}/share`, json(Compartida), call),
    share: (agentId: string, sessionId: string, call?: CallOptions) =>
      request({
        method: 'POST',
        path: `${conv(agentId, sessionId)}/share`,
        read: json(Compartida),
        resendable: true,
        signal: call?.signal,
      }),
    unshare: (agentId: string, sessionId: string, call?: CallOptions) =>
      request({
        method: 'DELETE',
        path: `${conv(agentId, sessionId)}/share`,
        read: json(Compartida),
        resendable: true,
        signal: call?.signal,
      }),

    // --- Turns ------------------------------------------------------------------------------
    /** Commissions a turn (202). Every retry (503, 429, network) resends the same turnId, so it never duplicates. */
    sendMessage: (agentId: string, sessionId: string, message: SendMessageInput, call?: CallOptions) =>
      request({
        method: 'POST',
        path: `${conv(agentId, sessionId)}/messages`,
        json: { ...message, turnId: message.turnId ?? randomUUID() },
        read: json(PostMessageAccepted),
        resendable: true,
        signal: call?.signal,
      }),
    cancelTurn: (agentId: string, sessionId: string, call?: CallOptions) =>
      request({
        method: 'POST',
        path: `${conv(agentId, sessionId)}/cancel`,
        read: json(CancelResult),
        resendable: true,
        signal: call?.signal,
      }),
    /** A closed request answers ApiError code `no_abierto` (404). */
    answerPermission: (agentId: string, sessionId: string, answer: PermissionBody, call?: CallOptions) =>
      request({
        method: 'POST',
        path: `${conv(agentId, sessionId)}/permission`,
        json: answer,
        read: json(PermissionResult),
        resendable: true,
        signal: call?.signal,
      }),
    setModel: (agentId: string, sessionId: string, model: string, call?: CallOptions) =>
      request<void>({
        method: 'POST',
        path: `${conv(agentId, sessionId)}/model`,
        json: { model },
        read: none,
        resendable: true,
        signal: call?.signal,
      }),
    listSchedule: (agentId: string, sessionId: string, call?: CallOptions) =>
      get(`${conv(agentId, sessionId)}/schedule`, json(ScheduleListResponse), call),
    scheduleTurn: (
      agentId: string,
      sessionId: string,
      body: {
        prompt: string;
        inMinutes?: number;
        dueAt?: string;
        repeatMin?: number | null;
        until?: string | null;
      },
      call?: CallOptions,
    ) =>
      request({
        method: 'POST',
        path: `${conv(agentId, sessionId)}/schedule`,
        json: body,
        read: json(ScheduleCreated),
        resendable: false,
        signal: call?.signal,
      }),
    cancelScheduledTurn: (agentId: string, sessionId: string, id: string, call?: CallOptions) =>
      request<void>({
        method: 'DELETE',
        path: `${conv(agentId, sessionId)}/schedule/${seg(id)}`,
        read: none,
        resendable: true,
        signal: call?.signal,
      }),
    /** The SSE URL of a conversation, for the event stream client. */
    eventsUrl: (agentId: string, sessionId: string): string => urlFor(`${conv(agentId, sessionId)}/events`),

    // --- Agent configuration (OAuth token with scope, or the agent's gat_ token) ------------
    getAgentConfig: (
      id: string,
      query: { full?: boolean; fields?: readonly string[] } = {},
      call?: CallOptions,
    ) =>
      get(agent(id), json(AgentConfig), call, {
        full: query.full ? '1' : undefined,
        fields: query.fields?.join(','),
      }),
    updateAgentConfig: (id: string, patch: PatchAgentBody, call?: CallOptions) =>
      request({
        method: 'PATCH',
        path: agent(id),
        json: patch,
        read: json(AgentConfig),
        resendable: true,
        signal: call?.signal,
      }),
    listWorkspace: (id: string, path = '', call?: CallOptions) => {
      const encoded = workspacePath(path);
      if (!encoded.ok) return Promise.resolve(encoded);
      return get(`${agent(id)}/files/${encoded.value}`, json(FilesListing), call);
    },
    /** Bytes of a workspace file (service extension, `Accept: application/octet-stream`), or a listing. */
    readWorkspaceFile: async (
      id: string,
      path: string,
      call?: CallOptions,
    ): Promise<ApiResult<WorkspaceRead>> => {
      const encoded = workspacePath(path);
      if (!encoded.ok) return encoded;
      const raw = await request<Response>({
        method: 'GET',
        path: `${agent(id)}/files/${encoded.value}`,
        accept: 'application/octet-stream',
        read: { kind: 'raw' },
        resendable: true,
        signal: call?.signal,
        headers: call?.headers,
      });
      if (!raw.ok) return raw;
      const contentType = raw.value.headers.get('content-type') ?? '';
      if (!contentType.includes('application/json')) {
        const bytes = new Uint8Array(await raw.value.arrayBuffer());
        const etag = raw.value.headers.get('etag') ?? undefined;
        return ok({ kind: 'bytes', bytes, contentType, ...(etag ? { etag } : {}) });
      }
      const listing = await readSuccess(raw.value, json(FilesListing));
      return listing.ok ? ok({ kind: 'listing', listing: listing.value }) : listing;
    },
    writeWorkspaceFile: (id: string, path: string, bytes: Uint8Array, call?: CallOptions) => {
      const encoded = workspacePath(path);
      if (!encoded.ok) return Promise.resolve(encoded);
      return request({
        method: 'PUT',
        path: `${agent(id)}/files/${encoded.value}`,
        bytes: { data: bytes, contentType: 'application/octet-stream' },
        read: json(FilePutResult),
        resendable: true,
        signal: call?.signal,
        headers: call?.headers,
      });
    },
    deleteWorkspaceFile: (id: string, path: string, call?: CallOptions) => {
      const encoded = workspacePath(path);
      if (!encoded.ok) return Promise.resolve(encoded);
      return request<void>({
        method: 'DELETE',
        path: `${agent(id)}/files/${encoded.value}`,
        read: none,
        resendable: true,
        signal: call?.signal,
        headers: call?.headers,
      });
    },
    listSkills: (id: string, call?: CallOptions) => get(`${agent(id)}/skills`, json(SkillsResponse), call),
    installSkill: (id: string, slug: string, body: SkillPutBody, call?: CallOptions) =>
      request({
        method: 'PUT',
        path: `${agent(id)}/skills/${seg(slug)}`,
        json: body,
        read: json(SkillPutResult),
        resendable: true,
        signal: call?.signal,
      }),
    deleteSkill: (id: string, slug: string, call?: CallOptions) =>
      request<void>({
        method: 'DELETE',
        path: `${agent(id)}/skills/${seg(slug)}`,
        read: none,
        resendable: true,
        signal: call?.signal,
      }),
    getMcpServers: (id: string, call?: CallOptions) => get(`${agent(id)}/mcp`, json(McpResponse), call),
    /** Replaces the ENTIRE list and restarts the agent. */
    setMcpServers: (id: string, servers: McpServer[], call?: CallOptions) =>
      request({
        method: 'PUT',
        path: `${agent(id)}/mcp`,
        json: { servers },
        read: json(McpPutResult),
        resendable: true,
        signal: call?.signal,
      }),
    getBundle: (id: string, call?: CallOptions) => get(`${agent(id)}/bundle`, json(Bundle), call),
    applyBundle: (id: string, bundle: Bundle, call?: CallOptions) =>
      request({
        method: 'POST',
        path: `${agent(id)}/bundle`,
        json: bundle,
        read: json(BundlePostResult),
        resendable: true,
        signal: call?.signal,
      }),
    restartAgent: (id: string, call?: CallOptions) =>
      request({
        method: 'POST',
        path: `${agent(id)}/restart`,
        read: json(RestartResult),
        resendable: false,
        signal: call?.signal,
      }),
    tryAgent: (id: string, body: TryBodyInput, call?: CallOptions) =>
      request({
        method: 'POST',
        path: `${agent(id)}/try`,
        json: body,
        read: json(TryResult),
        resendable: false,
        signal: call?.signal,
      }),

    // --- Account files and audio --------------------------------------------------------------
    listFiles: (call?: CallOptions) => get(`${me}/files`, json(FilesResponse), call),
    /** Raw bytes (not multipart) under the name `nombre`; answers the Archivo with a 6 h signed URL. */
    uploadFile: (
      nombre: string,
      bytes: Uint8Array,
      mimeType = 'application/octet-stream',
      call?: CallOptions,
    ) =>
      request({
        method: 'POST',
        path: `${me}/files`,
        query: { nombre },
        bytes: { data: bytes, contentType: mimeType },
        read: json(Archivo),
        resendable: false,
        signal: call?.signal,
      }),
    /** A new 6 h signed URL for a file. */
    getFileUrl: (id: string, call?: CallOptions) =>
      get(`${me}/files/${seg(id)}`, json(FileUrlResponse), call),
    deleteFile: (id: string, call?: CallOptions) =>
      request({
        method: 'DELETE',
        path: `${me}/files/${seg(id)}`,
        read: json(FileDeletedResult),
        resendable: true,
        signal: call?.signal,
      }),
    transcribe: (audio: Uint8Array, contentType: string, call?: CallOptions) =>
      request({
        method: 'POST',
        path: `${me}/stt`,
        bytes: { data: audio, contentType },
        read: json(SttResult),
        resendable: true,
        signal: call?.signal,
      }),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
