import { NotFound } from '../errors';
import { LIMITS } from '../limits';
import {
  AgentConfigQuery,
  AgentParams,
  McpPutBody,
  PatchAgentBody,
  SkillParams,
  SkillPutBody,
  WorkspaceFileParams,
  WorkspacePathParams,
} from '../requests';
import { AgentConfig } from '../resources';
import {
  FilePutResult,
  FilesListing,
  McpPutResult,
  McpResponse,
  SkillPutResult,
  SkillsResponse,
} from '../responses';
import {
  AGENT,
  defineRoute,
  invalid,
  JSON_BODY_MAX,
  MB,
  noMachine,
  notFound,
  ok,
  okOurs,
} from './define-route';

/** Agent configuration (credential AT): the configuration, workspace files, skills and MCP servers of `/api/v2/agents/{id}`. */
/** A workspace file's or listing's version (our extension): its content hash, quoted, a strong entity tag. */
const FILES_ETAG = {
  description: 'The version, for `If-None-Match` / `If-Match` (our extension).',
  type: 'string',
} as const;
const versionMoved = invalid(
  'Our extension: `If-Match` or `If-None-Match: *` did not hold, the file moved since it was read (`version_distinta`; `detalle` names its version now).',
);

export const agentConfigSection = [
  defineRoute({
    operationId: 'getAgent',
    method: 'GET',
    path: AGENT,
    tag: 'agent-config',
    summary: 'Read the agent configuration',
    description:
      '`full=1` wakes the machine and adds `files`, `skills`, `extensions`. `fields` filters (comma-separated); `id` is always included; unknown names are ignored and an empty `fields` leaves only `id` (our choice). ' +
      '`tools.gs` lists the tools the service lends (`account_files`, `send_file`, `connectors`; our choice), served to the agent as an MCP server named `agentdesk` per channel, so a vetoed tool is not listed and a call to it is refused. ' +
      'On the customer channels (`msgapp1`, `msgapp2`) `account_files` is off by default (our choice). `promptMode` is shown only for machine engines.',
    scope: 'agents:read',
    credential: 'agent-or-oauth',
    request: { params: AgentParams, query: AgentConfigQuery },
    responses: {
      200: ok('The configuration.', AgentConfig),
      400: invalid('`full` other than `1`, or an unknown name in `fields`.'),
      404: notFound,
      409: noMachine,
    },
  }),
  defineRoute({
    operationId: 'patchAgent',
    method: 'PATCH',
    path: AGENT,
    tag: 'agent-config',
    summary: 'Change the agent configuration',
    description:
      'All fields optional. `model` restarts the agent; `tools.extensions` changes restart the machine; `engine` switches engine keeping identity, skills, knowledge, channels and permissions. ' +
      'Our choices: switching to a machine engine starts its machine at once, so a machine that cannot start answers 502 `maquina_no_aplico` with the change saved; `promptMode` for an engine without a machine is 400 `body_invalido`; unknown tool or extension names are 400; a body whose every field already has that value is 400 `nada_que_cambiar`; `name` is trimmed and must be one line of visible text, without control characters or direction marks, as our POST of an agent requires (400 `body_invalido`); the answer also carries `aplicado`, the fields that changed.',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: {
      params: AgentParams,
      body: { kind: 'json', schema: PatchAgentBody, required: true, maxBytes: JSON_BODY_MAX },
    },
    responses: {
      200: ok('The configuration, with `nota` saying what applies to that engine.', AgentConfig),
      400: invalid('Nothing to change, invalid model, or a limit broken (`detalle` names the field).'),
      404: notFound,
      409: noMachine,
      502: invalid('Saved, but the machine did not take it; retry with restart.'),
    },
  }),
  defineRoute({
    operationId: 'getAgentFiles',
    method: 'GET',
    path: `${AGENT}/files/{path}`,
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
      headers: {
        Accept: '`application/octet-stream` asks for the bytes of a file (our extension).',
        'If-None-Match':
          'The `ETag` of the listing last read: 304 while nothing in it moved (our extension).',
      },
    },
    responses: {
      200: {
        description: 'The listing, or the bytes (our extension).',
        body: FilesListing,
        alsoBytes: true,
        headers: { ETag: FILES_ETAG },
      },
      304: {
        description:
          'Our extension: `If-None-Match` named the listing’s current `ETag`, so nothing in it moved; no body.',
        body: 'empty',
        headers: { ETag: FILES_ETAG },
      },
      400: invalid('Invalid path.'),
      404: notFound,
      409: noMachine,
    },
  }),
  defineRoute({
    operationId: 'putAgentFile',
    method: 'PUT',
    path: `${AGENT}/files/{path}`,
    tag: 'agent-config',
    summary: 'Write a workspace file',
    description: `Raw bytes, max ${MB(LIMITS.workspaceFileBytesMax)}; takes effect without a restart. Missing folders are created (our choice).`,
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: {
      params: WorkspaceFileParams,
      body: { kind: 'octet-stream', required: true, maxBytes: LIMITS.workspaceFileBytesMax },
      headers: {
        'If-Match': 'Write only if the file is still at this `etag` (our extension).',
        'If-None-Match': '`*`: write only if no file is there yet (our extension).',
      },
    },
    responses: {
      200: { ...ok('Written; `en` is where.', FilePutResult), headers: { ETag: FILES_ETAG } },
      400: invalid('Invalid path or empty body.'),
      404: notFound,
      409: noMachine,
      412: versionMoved,
      413: invalid(`Over ${MB(LIMITS.workspaceFileBytesMax)}.`),
    },
  }),
  defineRoute({
    operationId: 'deleteAgentFile',
    method: 'DELETE',
    path: `${AGENT}/files/{path}`,
    tag: 'agent-config',
    summary: 'Delete a workspace file',
    description: 'A directory path deletes the directory and its contents (our choice).',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: {
      params: WorkspaceFileParams,
      headers: { 'If-Match': 'Delete only if the file is still at this `etag` (our extension).' },
    },
    responses: {
      200: okOurs('Deleted'),
      400: invalid('Invalid path.'),
      404: notFound,
      409: noMachine,
      412: versionMoved,
    },
  }),
  defineRoute({
    operationId: 'getAgentSkills',
    method: 'GET',
    path: `${AGENT}/skills`,
    tag: 'agent-config',
    summary: 'List installed skills and the community catalog',
    scope: 'agents:read',
    credential: 'agent-or-oauth',
    request: { params: AgentParams },
    responses: { 200: ok('Skills and catalog.', SkillsResponse), 404: notFound, 409: noMachine },
  }),
  defineRoute({
    operationId: 'putAgentSkill',
    method: 'PUT',
    path: `${AGENT}/skills/{slug}`,
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
  defineRoute({
    operationId: 'deleteAgentSkill',
    method: 'DELETE',
    path: `${AGENT}/skills/{slug}`,
    tag: 'agent-config',
    summary: 'Remove a skill',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: { params: SkillParams },
    responses: { 200: okOurs('Removed'), 400: invalid('Invalid slug.'), 404: notFound, 409: noMachine },
  }),
  defineRoute({
    operationId: 'getAgentMcp',
    method: 'GET',
    path: `${AGENT}/mcp`,
    tag: 'agent-config',
    summary: 'List MCP servers',
    scope: 'agents:read',
    credential: 'agent-or-oauth',
    request: { params: AgentParams },
    responses: { 200: ok('The servers.', McpResponse), 404: notFound, 409: noMachine },
  }),
  defineRoute({
    operationId: 'putAgentMcp',
    method: 'PUT',
    path: `${AGENT}/mcp`,
    tag: 'agent-config',
    summary: 'Replace the MCP server list',
    description: `Replaces the ENTIRE list (max ${LIMITS.mcpServersMax}); writes the machine config and restarts the agent.`,
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: {
      params: AgentParams,
      body: { kind: 'json', schema: McpPutBody, required: true, maxBytes: JSON_BODY_MAX },
    },
    responses: {
      200: ok('Saved; `reiniciado` tells whether the agent restarted.', McpPutResult),
      400: invalid('Invalid server; the message names it.'),
      404: notFound,
      409: noMachine,
    },
  }),
] as const;
