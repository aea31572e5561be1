import { z } from 'zod';
import {
  AgenteNoAcp,
  ErrorBody,
  MethodNotAllowed,
  NotFound,
  OAuthErrorBody,
  PermissionNotFound,
  QuotaError,
  Reiniciando,
} from './errors';
import { SseMessage } from './events';
import { LIMITS } from './limits';
import {
  AgentConfigQuery,
  AgentParams,
  AuthorizeQuery,
  BundleBody,
  ConversationParams,
  ConversationQuery,
  DevicesBody,
  DevicesDeleteBody,
  FileUploadQuery,
  IdParams,
  McpPutBody,
  ModelBody,
  MsgappPutBody,
  PatchAgentBody,
  PatchConversationBody,
  PermissionBody,
  PersonAgentParams,
  PostMessageBody,
  RevokeRequest,
  ScheduleBody,
  ScheduleItemParams,
  SkillParams,
  SkillPutBody,
  SlugParams,
  TokenRequest,
  TryBody,
  WorkspaceFileParams,
  WorkspacePathParams,
} from './requests';
import { AgentConfig, Archivo, Bundle, Compartida, MsgappNumbers } from './resources';
import {
  BundlePostResult,
  CancelResult,
  ConnectorStartResult,
  ConnectorsResponse,
  ConversationCreated,
  ConversationResponse,
  ConversationsResponse,
  DeletedAccount,
  FileDeletedResult,
  FilePutResult,
  FilesListing,
  FilesResponse,
  FileUrlResponse,
  McpPutResult,
  McpResponse,
  MeAgentsResponse,
  ModelSet,
  OAuthServerMetadata,
  ScheduleCancelled,
  ConversationArchived,
  ConversationRenamed,
  OkResult,
  PermissionResult,
  PostMessageAccepted,
  ProveedoresResponse,
  RestartResult,
  RevokeResult,
  ScheduleCreated,
  ScheduleListResponse,
  SkillPutResult,
  SkillsResponse,
  SttResult,
  TokenResponse,
  TryResult,
} from './responses';
import type { ResponseSpec, RouteSpec } from './route-types';

// --- Shared responses ----------------------------------------------------------------------

const unauthorized: ResponseSpec = {
  description: 'No token, or an expired or unusable one: refresh and retry once.',
  body: 'text',
};
const forbidden: ResponseSpec = { description: 'A scope is missing; do not retry.', body: 'text' };
const notFound: ResponseSpec = {
  description:
    'The agent is not the caller’s, or the resource does not exist (never 403). Always the JSON body (our choice).',
  body: NotFound,
};
const noMachine: ResponseSpec = {
  description: 'The agent’s engine has no machine of its own; `motor` is the engine.',
  body: AgenteNoAcp,
};
const invalid = (what: string): ResponseSpec => ({ description: what, body: ErrorBody });
const ok = (description: string, body: ResponseSpec['body']): ResponseSpec => ({ description, body });
const okOurs = (what: string): ResponseSpec => ({
  description: `${what}. The spec does not show the body; ours is \`{ok: true}\` (our choice).`,
  body: OkResult,
});

/** Adds the 401/403 every bearer route can answer. */
function route(spec: RouteSpec): RouteSpec {
  if (spec.credential === 'none') return spec;
  return { ...spec, responses: { ...spec.responses, 401: unauthorized, 403: forbidden } };
}

const agent = '/api/v2/agents/{id}';
const conv = '/api/v2/me/agents/{agentId}/conversations';
const session = `${conv}/{sessionId}`;
const MB = (bytes: number) => `${bytes / (1024 * 1024)} MiB`;

// --- The table -----------------------------------------------------------------------------

/** Every route of the v2 spec, plus our marked extensions. The service and the client both read it. */
export const routes: readonly RouteSpec[] = [
  // Agent configuration (credential AT)
  route({
    operationId: 'getAgent',
    method: 'GET',
    path: agent,
    tag: 'agent-config',
    summary: 'Read the agent configuration',
    description:
      '`full=1` wakes the machine and adds `files`, `skills`, `extensions`. `fields` filters (comma-separated); `id` is always included; unknown names are ignored and an empty `fields` leaves only `id` (our choice). ' +
      '`tools.gs` lists the tools the service lends (`account_files`, `send_file`, `connectors`; our choice), served to the agent as an MCP server named `agentdesk` per channel, so a vetoed tool is not listed and a call to it is refused. ' +
      'On the customer channels (`msgapp1`, `msgapp2`) `account_files` is off by default (our choice). `promptMode` is shown only for machine engines.',
    scope: 'agents:read',
    credential: 'agent-or-oauth',
    request: { params: AgentParams, query: AgentConfigQuery },
    responses: { 200: ok('The configuration.', AgentConfig), 404: notFound, 409: noMachine },
  }),
  route({
    operationId: 'patchAgent',
    method: 'PATCH',
    path: agent,
    tag: 'agent-config',
    summary: 'Change the agent configuration',
    description:
      'All fields optional. `model` restarts the agent; `tools.extensions` changes restart the machine; `engine` switches engine keeping identity, skills, knowledge, channels and permissions. ' +
      'Our choices: switching to a machine engine starts its machine at once, so a machine that cannot start answers 502 `maquina_no_aplico` with the change saved; `promptMode` for an engine without a machine is 400 `body_invalido`; unknown tool or extension names are 400; a body whose every field already has that value is 400 `nada_que_cambiar`; the answer also carries `aplicado`, the fields that changed.',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: { params: AgentParams, body: { kind: 'json', schema: PatchAgentBody, required: true } },
    responses: {
      200: ok('The configuration, with `nota` saying what applies to that engine.', AgentConfig),
      400: invalid('Nothing to change, invalid model, or a limit broken (`detalle` names the field).'),
      404: notFound,
      409: noMachine,
      502: invalid('Saved, but the machine did not take it; retry with restart.'),
    },
  }),
  route({
    operationId: 'getAgentFiles',
    method: 'GET',
    path: `${agent}/files/{path}`,
    tag: 'agent-config',
    summary: 'List workspace files (or read one file’s bytes)',
    description:
      '`path` is relative to the workspace `/data/work`, no `..`; an empty path (`.../files` or `.../files/`) lists the root (our choice). The listing is recursive under the directory. ' +
      'Our choices: `dir` is the machine path of the directory (`/data/work/...`) and each `files[].path` is relative to the workspace; a path naming a file lists that file alone; symbolic links are never followed (a path through one is 400 `ruta_invalida`) and are not listed; the skills folder `.agents/skills` is managed by the skills routes and left out. ' +
      'Our extension: with `Accept: application/octet-stream` and a path naming a file, the answer is the file’s bytes; with a directory it is the listing. Each listed file also carries `sha256` (hex SHA-256 of its bytes), so a client can tell a same-size edit. Clients must cope with servers that lack both.',
    scope: 'agents:read',
    credential: 'agent-or-oauth',
    request: {
      params: WorkspacePathParams,
      headers: { Accept: '`application/octet-stream` asks for the bytes of a file (our extension).' },
    },
    responses: {
      200: { description: 'The listing, or the bytes (our extension).', body: FilesListing, alsoBytes: true },
      400: invalid('Invalid path.'),
      404: notFound,
      409: noMachine,
    },
  }),
  route({
    operationId: 'putAgentFile',
    method: 'PUT',
    path: `${agent}/files/{path}`,
    tag: 'agent-config',
    summary: 'Write a workspace file',
    description: `Raw bytes, max ${MB(LIMITS.workspaceFileBytesMax)}; takes effect without a restart. Missing folders are created (our choice).`,
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: {
      params: WorkspaceFileParams,
      body: { kind: 'octet-stream', required: true, maxBytes: LIMITS.workspaceFileBytesMax },
    },
    responses: {
      200: ok('Written; `en` is where.', FilePutResult),
      400: invalid('Invalid path or empty body.'),
      404: notFound,
      409: noMachine,
      413: invalid(`Over ${MB(LIMITS.workspaceFileBytesMax)}.`),
    },
  }),
  route({
    operationId: 'deleteAgentFile',
    method: 'DELETE',
    path: `${agent}/files/{path}`,
    tag: 'agent-config',
    summary: 'Delete a workspace file',
    description: 'A directory path deletes the directory and its contents (our choice).',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: { params: WorkspaceFileParams },
    responses: { 200: okOurs('Deleted'), 400: invalid('Invalid path.'), 404: notFound, 409: noMachine },
  }),
  route({
    operationId: 'getAgentSkills',
    method: 'GET',
    path: `${agent}/skills`,
    tag: 'agent-config',
    summary: 'List installed skills and the community catalog',
    scope: 'agents:read',
    credential: 'agent-or-oauth',
    request: { params: AgentParams },
    responses: { 200: ok('Skills and catalog.', SkillsResponse), 404: notFound, 409: noMachine },
  }),
  route({
    operationId: 'putAgentSkill',
    method: 'PUT',
    path: `${agent}/skills/{slug}`,
    tag: 'agent-config',
    summary: 'Install or replace a skill',
    description: `\`markdown\` is SKILL.md with frontmatter; it is required unless \`fromCatalog\` is true (our choice). Payload max ${MB(LIMITS.skillPayloadBytesMax)}, measured on the request body (our choice). The frontmatter must be a YAML mapping with a non-empty \`description\` (our choice). The skill is installed in \`/data/work/.agents/skills/<slug>/\`, where the agent process sees it, replacing any earlier version as a whole. The community catalog is a small set of our own example skills (CC0); each item's \`url\` is served by the service at \`/catalogo/skills/{slug}?v=<pin>\` (our choice).`,
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: {
      params: SkillParams,
      body: { kind: 'json', schema: SkillPutBody, required: true, maxBytes: LIMITS.skillPayloadBytesMax },
    },
    responses: {
      200: ok('Installed.', SkillPutResult),
      400: invalid('Invalid slug, or SKILL.md without frontmatter.'),
      404: { description: '`fromCatalog` slug not in the catalog, or agent not found.', body: NotFound },
      409: noMachine,
      413: invalid(`Over ${MB(LIMITS.skillPayloadBytesMax)}.`),
    },
  }),
  route({
    operationId: 'deleteAgentSkill',
    method: 'DELETE',
    path: `${agent}/skills/{slug}`,
    tag: 'agent-config',
    summary: 'Remove a skill',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: { params: SkillParams },
    responses: { 200: okOurs('Removed'), 400: invalid('Invalid slug.'), 404: notFound, 409: noMachine },
  }),
  route({
    operationId: 'getAgentMcp',
    method: 'GET',
    path: `${agent}/mcp`,
    tag: 'agent-config',
    summary: 'List MCP servers',
    scope: 'agents:read',
    credential: 'agent-or-oauth',
    request: { params: AgentParams },
    responses: { 200: ok('The servers.', McpResponse), 404: notFound, 409: noMachine },
  }),
  route({
    operationId: 'putAgentMcp',
    method: 'PUT',
    path: `${agent}/mcp`,
    tag: 'agent-config',
    summary: 'Replace the MCP server list',
    description: `Replaces the ENTIRE list (max ${LIMITS.mcpServersMax}); writes the machine config and restarts the agent.`,
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: { params: AgentParams, body: { kind: 'json', schema: McpPutBody, required: true } },
    responses: {
      200: ok('Saved; `reiniciado` tells whether the agent restarted.', McpPutResult),
      400: invalid('Invalid server; the message names it.'),
      404: notFound,
      409: noMachine,
    },
  }),
  route({
    operationId: 'restartAgent',
    method: 'POST',
    path: `${agent}/restart`,
    tag: 'agent-config',
    summary: 'Restart the agent machine',
    description: 'Interrupts running turns; the disk survives.',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: { params: AgentParams },
    responses: { 200: ok('Restarted.', RestartResult), 404: notFound, 409: noMachine },
  }),
  route({
    operationId: 'tryAgent',
    method: 'POST',
    path: `${agent}/try`,
    tag: 'agent-config',
    summary: 'Run a test turn and wait for its text',
    description:
      'Waits up to 180 s; one turn at a time per session; consumes balance like any turn. `reset: true` forgets the session before sending `text`. `text` is required even when only resetting (our choice). With `as: msgapp1` the turn runs as a business-chat customer and `session` is a phone number of 10 to 15 digits. ' +
      "Our choices: try sessions are separate from the person's conversations; permissions asked during a try are allowed once; a turn cut by the 180 s limit keeps the text said so far (200 with `error`, or 502 without text). `house-lite` has no machine: each turn runs in a fresh folder seeded from the bundle, answered by the service's built-in deterministic responder (`list files`, `read <path>`, `fail`, anything else gets a reply naming the instructions, skills and knowledge it sees).",
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: { params: AgentParams, body: { kind: 'json', schema: TryBody, required: true } },
    responses: {
      200: ok('The reply.', TryResult),
      400: invalid('Missing `text` or invalid `session`/`as`.'),
      404: notFound,
      409: invalid('`turno_en_curso`: a turn of this session is running.'),
      502: ok('The turn failed without text; `error` says why.', TryResult),
    },
  }),
  route({
    operationId: 'getAgentBundle',
    method: 'GET',
    path: `${agent}/bundle`,
    tag: 'agent-config',
    summary: 'Export the agent bundle',
    description:
      'Contains `instructions.md`, `skills/<slug>/...`, `knowledge/...`, `mcp.json` (base64 in JSON).',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: { params: AgentParams },
    responses: { 200: ok('The bundle.', Bundle), 404: notFound },
  }),
  route({
    operationId: 'postAgentBundle',
    method: 'POST',
    path: `${agent}/bundle`,
    tag: 'agent-config',
    summary: 'Import an agent bundle',
    description:
      'The posted files are the whole bundle: known parts not posted are removed (our choice): a skill not named goes, knowledge files not posted go, no `instructions.md` empties the prompt and no `mcp.json` empties the server list. Unknown paths are listed in `ignorado`. ' +
      'Our choices: a part that cannot be used (an `mcp.json` with an invalid server, a skill without a valid SKILL.md, a prompt over 20000 characters, a path with `.` or empty segments) is listed in `ignorado`, explained in `nota`, and the saved state of that part is kept. The whole body is capped at 100 MiB. A changed MCP list restarts a machine agent.',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: { params: AgentParams, body: { kind: 'json', schema: BundleBody, required: true } },
    responses: {
      200: ok('Applied.', BundlePostResult),
      400: invalid('`body_invalido` or a path that escapes the bundle.'),
      404: notFound,
      413: invalid(`A file over ${MB(LIMITS.workspaceFileBytesMax)}.`),
    },
  }),
  route({
    operationId: 'getAgentMsgapp1',
    method: 'GET',
    path: `${agent}/msgapp1`,
    tag: 'agent-config',
    summary: 'List msgapp1 numbers',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: { params: AgentParams },
    responses: { 200: ok('The numbers.', MsgappNumbers), 404: notFound },
  }),
  route({
    operationId: 'putAgentMsgapp1',
    method: 'PUT',
    path: `${agent}/msgapp1`,
    tag: 'agent-config',
    summary: 'Choose the msgapp1 numbers this agent answers',
    description:
      'A number answered by another agent moves to this one; unticking only silences, the pairing is kept. ' +
      "Our choices: the numbers come from the service's workspace config (`workspace.msgapp1.numbers` and `salesUrl` in config.json) and are shared by every agent of the service; `hasSales` is true when a `salesUrl` is set; an unknown number id is 400 `body_invalido`; `cambiados` counts the numbers whose pairing or silencing changed.",
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: { params: AgentParams, body: { kind: 'json', schema: MsgappPutBody, required: true } },
    responses: {
      200: ok('The numbers, with `cambiados`.', MsgappNumbers),
      400: invalid('`body_invalido`.'),
      404: notFound,
    },
  }),

  // Account and agents (credential OA)
  route({
    operationId: 'deleteMe',
    method: 'DELETE',
    path: '/api/v2/me',
    tag: 'account',
    summary: 'Delete the account',
    description: 'Deletes agents, machines, conversations and files.',
    scope: 'agents:write',
    credential: 'oauth',
    request: {},
    responses: {
      200: ok('Deleted.', DeletedAccount),
      409: invalid('A blocker exists (e.g. owner of a space with members).'),
    },
  }),
  route({
    operationId: 'getMyAgents',
    method: 'GET',
    path: '/api/v2/me/agents',
    tag: 'account',
    summary: 'List the person’s agents',
    description:
      'With the `profile` scope the e-mail is included. An empty account gets its first agent enrolled before answering.',
    scope: 'agents:read',
    credential: 'oauth',
    request: {},
    responses: { 200: ok('Agents and the person.', MeAgentsResponse) },
  }),

  // Conversations (credential OA)
  route({
    operationId: 'listConversations',
    method: 'GET',
    path: conv,
    tag: 'conversations',
    summary: 'List conversations with their last-turn state',
    scope: 'agents:read',
    credential: 'oauth',
    request: { params: PersonAgentParams },
    responses: { 200: ok('Conversations.', ConversationsResponse), 404: notFound, 409: noMachine },
  }),
  route({
    operationId: 'createConversation',
    method: 'POST',
    path: conv,
    tag: 'conversations',
    summary: 'Create a conversation',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: PersonAgentParams },
    responses: { 201: ok('Created.', ConversationCreated), 404: notFound, 409: noMachine },
  }),
  route({
    operationId: 'getConversation',
    method: 'GET',
    path: session,
    tag: 'conversations',
    summary: 'Read a conversation’s messages',
    description:
      'Only the tail is returned: `limit` messages, default 50 (our choice). `saltados` counts the rest.',
    scope: 'agents:read',
    credential: 'oauth',
    request: { params: ConversationParams, query: ConversationQuery },
    responses: { 200: ok('Messages.', ConversationResponse), 404: notFound },
  }),
  route({
    operationId: 'renameConversation',
    method: 'PATCH',
    path: session,
    tag: 'conversations',
    summary: 'Rename a conversation',
    scope: 'agents:write',
    credential: 'oauth',
    request: {
      params: ConversationParams,
      body: { kind: 'json', schema: PatchConversationBody, required: true },
    },
    responses: {
      200: ok(
        'Renamed. The spec does not show the body; ours is `{id, titulo}` (our choice).',
        ConversationRenamed,
      ),
      400: invalid('Missing `title`.'),
      404: notFound,
    },
  }),
  route({
    operationId: 'archiveConversation',
    method: 'DELETE',
    path: session,
    tag: 'conversations',
    summary: 'Archive a conversation',
    description: 'The conversation leaves the list.',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ConversationParams },
    responses: {
      200: ok(
        'Archived. The spec does not show the body; ours is `{id, archivada: true}` (our choice).',
        ConversationArchived,
      ),
      404: notFound,
    },
  }),
  route({
    operationId: 'getShare',
    method: 'GET',
    path: `${session}/share`,
    tag: 'conversations',
    summary: 'Read the sharing state',
    scope: 'agents:read',
    credential: 'oauth',
    request: { params: ConversationParams },
    responses: { 200: ok('Sharing state.', Compartida), 404: notFound },
  }),
  route({
    operationId: 'share',
    method: 'POST',
    path: `${session}/share`,
    tag: 'conversations',
    summary: 'Share the conversation publicly',
    description: 'The public page is `/s/{slug}`; slugs are unguessable (at least 128 bits) (our choice).',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ConversationParams },
    responses: { 200: ok('Shared.', Compartida), 404: notFound },
  }),
  route({
    operationId: 'unshare',
    method: 'DELETE',
    path: `${session}/share`,
    tag: 'conversations',
    summary: 'Stop sharing the conversation',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ConversationParams },
    responses: { 200: ok('Not shared.', Compartida), 404: notFound },
  }),

  // Turns (credential OA)
  route({
    operationId: 'postMessage',
    method: 'POST',
    path: `${session}/messages`,
    tag: 'turns',
    summary: 'Send a message (commission a turn)',
    description:
      'Answers 202 on acceptance, not completion; follow the turn on the events stream. A repeated `turnId` gives `repetido: true` and no second turn. A message to a running turn joins it (`inyectado`) or replaces a closing one (`reemplazoAnterior`). `key` identifies the turn across conversations: `<sessionId>/<turnId>` (our choice).',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ConversationParams, body: { kind: 'json', schema: PostMessageBody, required: true } },
    responses: {
      202: ok('Accepted, not finished.', PostMessageAccepted),
      400: invalid('Missing `content` or an invalid field.'),
      402: ok('Allowance exhausted, trial expired, or the model needs the caller’s own key.', QuotaError),
      404: notFound,
      409: noMachine,
      503: {
        description: 'Restart in progress: retry with the SAME `turnId` after `Retry-After`.',
        body: Reiniciando,
        headers: { 'Retry-After': { description: 'Seconds to wait (10).', type: 'integer' } },
      },
    },
  }),
  route({
    operationId: 'getEvents',
    method: 'GET',
    path: `${session}/events`,
    tag: 'turns',
    summary: 'Subscribe to the conversation’s events (SSE)',
    description:
      'Named events (see the SSE event schemas). On connect, first what the current turn already emitted, then live events; `done {reposo: true}` when idle. Heartbeat: a `: ping` comment every 25 s (our choice). Each event carries an `id:` and `Last-Event-ID` resumes after it (our addition).',
    scope: 'agents:read',
    credential: 'oauth',
    request: {
      params: ConversationParams,
      headers: { 'Last-Event-ID': 'Resume after this event id (our addition).' },
    },
    responses: {
      200: {
        description:
          '`text/event-stream`; each message is an `event:` name with its JSON `data:` (`SseMessage`).',
        body: 'event-stream',
        itemSchema: SseMessage,
      },
      404: notFound,
      409: noMachine,
    },
  }),
  route({
    operationId: 'cancelTurn',
    method: 'POST',
    path: `${session}/cancel`,
    tag: 'turns',
    summary: 'Cancel the running turn',
    description:
      'Only whoever requested the turn; for anyone else, and when no turn runs, `detenido` is false (our choice).',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ConversationParams },
    responses: { 200: ok('Whether a turn was stopped.', CancelResult), 404: notFound },
  }),
  route({
    operationId: 'answerPermission',
    method: 'POST',
    path: `${session}/permission`,
    tag: 'turns',
    summary: 'Answer a permission request',
    description:
      '`id` is the `permission` event id, `optionId` one of its `options[].optionId`. Unanswered requests are denied after 10 minutes.',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ConversationParams, body: { kind: 'json', schema: PermissionBody, required: true } },
    responses: {
      200: ok('Resolved.', PermissionResult),
      400: invalid('Missing `id` or `optionId`.'),
      404: {
        description:
          'The request is not open (`{resuelto: false, motivo: no_abierto}`), or the conversation does not exist (`not_found`).',
        body: PermissionNotFound,
      },
    },
  }),
  route({
    operationId: 'setModel',
    method: 'POST',
    path: `${session}/model`,
    tag: 'turns',
    summary: 'Choose the model for the next turns',
    description: 'Values from the `models` event; applies from the next turn.',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ConversationParams, body: { kind: 'json', schema: ModelBody, required: true } },
    responses: {
      200: ok(
        'Saved. The spec does not show the body; ours is `{model, aplica: "siguiente_turno"}` (our choice).',
        ModelSet,
      ),
      400: invalid('Missing or unknown model.'),
      404: notFound,
    },
  }),
  route({
    operationId: 'listSchedule',
    method: 'GET',
    path: `${session}/schedule`,
    tag: 'turns',
    summary: 'List scheduled turns',
    scope: 'agents:read',
    credential: 'oauth',
    request: { params: ConversationParams },
    responses: { 200: ok('Scheduled turns.', ScheduleListResponse), 404: notFound },
  }),
  route({
    operationId: 'createSchedule',
    method: 'POST',
    path: `${session}/schedule`,
    tag: 'turns',
    summary: 'Schedule a turn',
    description:
      'Give exactly one of `inMinutes` or `dueAt` (our choice: both is an error). `repeatMin` makes it periodic, `until` bounds it. A turn missed while the service was down fires once on start (our choice).',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ConversationParams, body: { kind: 'json', schema: ScheduleBody, required: true } },
    responses: {
      201: ok('Scheduled.', ScheduleCreated),
      400: invalid('`body_invalido` or a validation error with `detalle`.'),
      404: notFound,
    },
  }),
  route({
    operationId: 'cancelSchedule',
    method: 'DELETE',
    path: `${session}/schedule/{id}`,
    tag: 'turns',
    summary: 'Cancel a scheduled turn',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: ScheduleItemParams },
    responses: {
      200: ok(
        'Cancelled. The spec does not show the body; ours is `{id, cancelado: true}` (our choice).',
        ScheduleCancelled,
      ),
      404: notFound,
    },
  }),

  // Files and audio (credential OA, scope files)
  route({
    operationId: 'listFiles',
    method: 'GET',
    path: '/api/v2/me/files',
    tag: 'files',
    summary: 'List account files',
    scope: 'files',
    credential: 'oauth',
    request: {},
    responses: { 200: ok('Files, each with a fresh signed URL.', FilesResponse) },
  }),
  route({
    operationId: 'uploadFile',
    method: 'POST',
    path: '/api/v2/me/files',
    tag: 'files',
    summary: 'Upload an account file',
    description: `Raw bytes (not multipart); the \`Content-Type\` header becomes \`mimeType\`; without one, or with \`application/octet-stream\`, it is guessed from the extension of \`nombre\` (our choice). Max ${MB(LIMITS.workspaceFileBytesMax)} (our choice). \`nombre\` is a file name of at most 255 characters without slashes or control characters (our choice).`,
    scope: 'files',
    credential: 'oauth',
    request: {
      query: FileUploadQuery,
      body: { kind: 'octet-stream', required: true, maxBytes: LIMITS.workspaceFileBytesMax },
    },
    responses: {
      200: ok('The file, with a signed URL valid 6 h.', Archivo),
      400: invalid('Missing `nombre`.'),
      413: invalid(`Over ${MB(LIMITS.workspaceFileBytesMax)}.`),
    },
  }),
  route({
    operationId: 'getFileUrl',
    method: 'GET',
    path: '/api/v2/me/files/{id}',
    tag: 'files',
    summary: 'Get a new signed URL for a file',
    scope: 'files',
    credential: 'oauth',
    request: { params: IdParams },
    responses: { 200: ok('A new 6 h signed URL.', FileUrlResponse), 404: notFound },
  }),
  route({
    operationId: 'deleteFile',
    method: 'DELETE',
    path: '/api/v2/me/files/{id}',
    tag: 'files',
    summary: 'Delete an account file',
    description: 'An unknown id answers 200 `{deleted: false}` (our choice).',
    scope: 'files',
    credential: 'oauth',
    request: { params: IdParams },
    responses: { 200: ok('Whether it was deleted.', FileDeletedResult) },
  }),
  route({
    operationId: 'transcribe',
    method: 'POST',
    path: '/api/v2/me/stt',
    tag: 'files',
    summary: 'Transcribe audio',
    description:
      'Raw audio bytes with an `audio/*` content type. Without a configured transcription engine: 503 `{error, detalle}` (our choice). ' +
      "Our choices: engines are tried in order, Debian's pocketsphinx with its English model (audio converted to 16 kHz mono WAV by ffmpeg when needed), then an OpenAI-compatible `/audio/transcriptions` endpoint from config `stt.openai`; the local plan's audio cap is 25 MiB, set with config `stt.maxBytes`; audio that cannot be decoded is 400 `audio_invalido`; an engine that fails is 502 `transcripcion_fallida`.",
    scope: 'files',
    credential: 'oauth',
    request: { body: { kind: 'audio', required: true } },
    responses: {
      200: ok('The text.', SttResult),
      400: invalid('Empty body, not `audio/*`, or audio that cannot be decoded.'),
      413: invalid('Audio too large: `{error: "audio demasiado grande"}`.'),
      502: invalid('The transcription engine failed (our choice).'),
      503: invalid('No transcription engine is set up (our choice).'),
    },
  }),

  // Connectors and devices (credential OA; scopes are our choice)
  route({
    operationId: 'listConnectors',
    method: 'GET',
    path: '/api/v2/me/connectors',
    tag: 'connectors',
    summary: 'List connectors',
    description: 'Scope `agents:read` (our choice; the spec does not say).',
    scope: 'agents:read',
    credential: 'oauth',
    request: {},
    responses: { 200: ok('Connectors.', ConnectorsResponse) },
  }),
  route({
    operationId: 'startConnector',
    method: 'POST',
    path: '/api/v2/me/connectors/{id}/start',
    tag: 'connectors',
    summary: 'Start connecting a provider',
    description:
      'Open `url` in a browser. On return from the provider the service stores the grant, shows a page saying the connection is done, and the connector reads `conectado: true` (our choice). Scope `agents:write` (our choice). ' +
      'Our choices: the provider sends the browser back to `/conectores/callback` on the service (authorization code with PKCE, state valid 10 minutes and single use); a refusal or a stale attempt shows a page saying why. The built-in `demo` provider runs on its own loopback port so the round trip is real; other providers come from config `connectors` with client credentials, and one without credentials is listed with `disponible: false` and answers 409 `no_disponible` here. Provider tokens are stored sealed (AES-256-GCM).',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: IdParams },
    responses: {
      200: ok('Where to go.', ConnectorStartResult),
      404: notFound,
      409: invalid('`no_disponible`: the provider has no client credentials here (our choice).'),
    },
  }),
  route({
    operationId: 'deleteConnector',
    method: 'DELETE',
    path: '/api/v2/me/connectors/{id}',
    tag: 'connectors',
    summary: 'Disconnect a provider',
    description:
      'Disconnects and revokes at the provider (RFC 7009; the link is forgotten even when the provider cannot be reached). Disconnecting a connector that is not connected also answers 200. Scope `agents:write` (our choice).',
    scope: 'agents:write',
    credential: 'oauth',
    request: { params: IdParams },
    responses: { 200: okOurs('Disconnected'), 404: notFound },
  }),
  route({
    operationId: 'registerDevice',
    method: 'POST',
    path: '/api/v2/me/devices',
    tag: 'devices',
    summary: 'Register a push device',
    description:
      'Scope `agents:write` (our choice). Our choices: `entorno` defaults to `production`; an iOS token is 64 or more hex characters and an Android token 32 to 4096 of letters, digits, `-`, `_`, `:` and `.`, else 400 `token_invalido`; a wrong `plataforma` or `entorno` is 400 `body_invalido`; registering a token again updates it, and only its SHA-256 is stored (the local service sends no pushes).',
    scope: 'agents:write',
    credential: 'oauth',
    request: { body: { kind: 'json', schema: DevicesBody, required: true } },
    responses: {
      200: okOurs('Registered'),
      400: invalid('`token_invalido`, or `body_invalido` for the other fields.'),
    },
  }),
  route({
    operationId: 'unregisterDevice',
    method: 'DELETE',
    path: '/api/v2/me/devices',
    tag: 'devices',
    summary: 'Unregister a push device',
    description:
      'The device is identified by its push `token`, in a JSON body `{token}` or as the `token` query parameter (our choice). Unknown tokens also answer 204. Scope `agents:write` (our choice).',
    scope: 'agents:write',
    credential: 'oauth',
    request: {
      query: z.object({ token: z.string().min(1).optional() }),
      body: { kind: 'json', schema: DevicesDeleteBody, required: false },
    },
    responses: { 204: ok('Unregistered.', 'empty'), 400: invalid('`token_invalido`.') },
  }),

  // OAuth (no bearer)
  route({
    operationId: 'authorize',
    method: 'GET',
    path: '/oauth2/authorize',
    tag: 'oauth',
    summary: 'Authorization endpoint (code + PKCE S256)',
    description:
      'Shows sign-in and consent (first-party clients skip consent), then redirects to `redirect_uri` with `code` and `state`; the code is valid 60 s. On invalid parameters (our choice): an unknown `client_id` or an unregistered `redirect_uri` gives a 400 HTML error page and never redirects; any other invalid parameter redirects with `error=invalid_request` (or `unsupported_response_type`, `access_denied`) and `state` (RFC 6749 §4.1.2.1). Loopback redirect URIs on 127.0.0.1 accept any port (our choice, RFC 8252 §7.3).',
    scope: null,
    credential: 'none',
    request: { query: AuthorizeQuery },
    responses: {
      200: ok('The sign-in or consent page.', 'html'),
      302: {
        description: 'Redirect to `redirect_uri` with `code` and `state`, or with `error`.',
        body: 'empty',
        headers: { Location: { description: 'The redirect target.', type: 'string' } },
      },
      400: ok('Unknown client or redirect URI (our choice).', 'html'),
    },
  }),
  route({
    operationId: 'token',
    method: 'POST',
    path: '/oauth2/token',
    tag: 'oauth',
    summary: 'Token endpoint',
    description:
      '`authorization_code` (with `code`, `redirect_uri` compared exactly, `code_verifier`) or `refresh_token` (rotates on every use; reusing a rotated one revokes the family). Confidential clients send `client_secret` in the body or as `Authorization: Basic`.',
    scope: null,
    credential: 'none',
    request: { body: { kind: 'form', schema: TokenRequest, required: true } },
    responses: {
      200: ok('Tokens.', TokenResponse),
      400: ok('`invalid_grant`, `unsupported_grant_type` or `invalid_request`.', OAuthErrorBody),
      401: ok('`invalid_client`.', OAuthErrorBody),
    },
  }),
  route({
    operationId: 'revoke',
    method: 'POST',
    path: '/oauth2/revoke',
    tag: 'oauth',
    summary: 'Revoke a token',
    description:
      'Always 200, even if the token does not exist or the form is incomplete; the body is `{}` (our choice). Only a token of the authenticated client is revoked; revoking a refresh token revokes its family (our choice).',
    scope: null,
    credential: 'none',
    request: { body: { kind: 'form', schema: RevokeRequest, required: true } },
    responses: { 200: ok('Done, whatever the token or client.', RevokeResult) },
  }),
  route({
    operationId: 'listLoginProviders',
    method: 'GET',
    path: '/oauth2/proveedores',
    tag: 'oauth',
    summary: 'List active login providers',
    description:
      'Public. The spec does not show the body; ours is `{proveedores: [{id, nombre, tipo}]}` (our choice).',
    scope: null,
    credential: 'none',
    request: {},
    responses: { 200: ok('Providers.', ProveedoresResponse) },
  }),

  // Public pages
  route({
    operationId: 'sharedConversationPage',
    method: 'GET',
    path: '/s/{slug}',
    tag: 'public',
    summary: 'Public page of a shared conversation',
    description:
      'The spec does not show the contents. Ours (our choice): a read-only HTML page with the title and the messages as escaped text, `noindex`; 404 once unshared or unknown.',
    scope: null,
    credential: 'none',
    request: { params: SlugParams },
    responses: { 200: ok('The page.', 'html'), 404: ok('Not shared (our choice: an HTML page).', 'html') },
  }),
  route({
    operationId: 'openapi',
    method: 'GET',
    path: '/openapi.yaml',
    tag: 'public',
    summary: 'This OpenAPI 3.1 description (version 2.0)',
    description: 'Public, no bearer needed (our choice).',
    scope: null,
    credential: 'none',
    request: {},
    responses: { 200: ok('`application/yaml`.', 'yaml') },
  }),

  // Our extensions
  route({
    operationId: 'oauthServerMetadata',
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    tag: 'oauth',
    summary: 'OAuth authorization server metadata (RFC 8414)',
    description: 'Our extension, so OAuth libraries can discover the endpoints. Public.',
    scope: null,
    credential: 'none',
    request: {},
    responses: { 200: ok('The metadata.', OAuthServerMetadata) },
    extension: true,
  }),
  route({
    operationId: 'downloadSignedFile',
    method: 'GET',
    path: '/archivos/{id}',
    tag: 'files',
    summary: 'Download an account file through its signed URL',
    description:
      'Our extension: the address the `url` of an Archivo points at, `/archivos/{id}?exp=<unix seconds>&sig=<HMAC>`. No bearer: the signature over (id, exp) is the credential. A tampered URL gives 403 `firma_invalida`, an expired one 403 `url_caducada` (our choice). Serves the bytes with the file’s `Content-Type`, inert (`nosniff`, sandbox CSP).',
    scope: null,
    credential: 'none',
    request: {
      params: IdParams,
      query: z.object({ exp: z.string().regex(/^\d+$/), sig: z.string().min(1) }),
    },
    responses: {
      200: ok('The bytes.', 'bytes'),
      403: ok('Tampered (`firma_invalida`) or expired (`url_caducada`) URL.', ErrorBody),
      404: notFound,
    },
    extension: true,
  }),
];

/** 405 body for a known path with another method. */
export const methodNotAllowedResponse: ResponseSpec = {
  description: 'Wrong method; `Allow` lists the right ones.',
  body: MethodNotAllowed,
  headers: { Allow: { description: 'Methods of this path.', type: 'string' } },
};

export function routeById(operationId: string): RouteSpec | undefined {
  return routes.find((r) => r.operationId === operationId);
}
