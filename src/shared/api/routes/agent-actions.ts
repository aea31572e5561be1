import { QuotaError } from '../errors';
import { LIMITS } from '../limits';
import { AgentParams, BundleBody, MsgappPutBody, TryBody } from '../requests';
import { Bundle, MsgappNumbers } from '../resources';
import { BundlePostResult, RestartResult, TryResult } from '../responses';
import {
  AGENT,
  BUNDLE_BODY_MAX,
  defineRoute,
  invalid,
  JSON_BODY_MAX,
  MB,
  noMachine,
  notFound,
  ok,
} from './define-route';

/** The bundle's version (our extension): sha256 over its files, quoted, as a strong entity tag. */
const BUNDLE_ETAG = {
  description: 'The bundle’s version, for `If-None-Match` (our extension).',
  type: 'string',
} as const;

/** Agent configuration, continued (credential AT): restart, a try turn, the bundle and the msgapp1 numbers. */
export const agentActionsSection = [
  defineRoute({
    operationId: 'restartAgent',
    method: 'POST',
    path: `${AGENT}/restart`,
    tag: 'agent-config',
    summary: 'Restart the agent machine',
    description: 'Interrupts running turns; the disk survives.',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: { params: AgentParams },
    responses: { 200: ok('Restarted.', RestartResult), 404: notFound, 409: noMachine },
  }),
  defineRoute({
    operationId: 'tryAgent',
    method: 'POST',
    path: `${AGENT}/try`,
    tag: 'agent-config',
    summary: 'Run a test turn and wait for its text',
    description:
      'Waits up to 180 s; one turn at a time per session; consumes balance like any turn. `reset: true` forgets the session before sending `text`. `text` is required even when only resetting (our choice). With `as: msgapp1` the turn runs as a business-chat customer and `session` is a phone number of 10 to 15 digits. ' +
      "Our choices: try sessions are separate from the person's conversations; permissions asked during a try are allowed once; a turn cut by the 180 s limit keeps the text said so far (200 with `error`, or 502 without text). `house-lite` has no machine: each turn runs in a fresh folder seeded from the bundle, answered by the service's built-in deterministic responder (`list files`, `read <path>`, `fail`, anything else gets a reply naming the instructions, skills and knowledge it sees).",
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: {
      params: AgentParams,
      body: { kind: 'json', schema: TryBody, required: true, maxBytes: JSON_BODY_MAX },
    },
    responses: {
      200: ok('The reply.', TryResult),
      400: invalid('Missing `text` or invalid `session`/`as`.'),
      402: ok('The allowance is used up (`quota_exhausted`): a try turn is paid like any turn.', QuotaError),
      404: notFound,
      409: invalid('`turno_en_curso`: a turn of this session is running.'),
      502: ok('The turn failed without text; `error` says why.', TryResult),
    },
  }),
  defineRoute({
    operationId: 'getAgentBundle',
    method: 'GET',
    path: `${AGENT}/bundle`,
    tag: 'agent-config',
    summary: 'Export the agent bundle',
    description:
      'Contains `instructions.md`, `skills/<slug>/...`, `knowledge/...`, `mcp.json` (base64 in JSON).',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: {
      params: AgentParams,
      headers: {
        'If-None-Match':
          'The `ETag` of the bundle last read: 304 while it has not changed (our extension, docs/extensions.md).',
      },
    },
    responses: {
      200: { ...ok('The bundle.', Bundle), headers: { ETag: BUNDLE_ETAG } },
      304: {
        description:
          'Our extension: `If-None-Match` named the bundle’s current `ETag`, so nothing changed since it was read; no body.',
        body: 'empty',
        headers: { ETag: BUNDLE_ETAG },
      },
      404: notFound,
    },
  }),
  defineRoute({
    operationId: 'postAgentBundle',
    method: 'POST',
    path: `${AGENT}/bundle`,
    tag: 'agent-config',
    summary: 'Import an agent bundle',
    description:
      'The posted files are the whole bundle: known parts not posted are removed (our choice): a skill not named goes, knowledge files not posted go, no `instructions.md` empties the prompt and no `mcp.json` empties the server list. Unknown paths are listed in `ignorado`. ' +
      'Our choices: a part that cannot be used (an `mcp.json` with an invalid server, a skill without a valid SKILL.md, a prompt over 20000 characters, a path with `.` or empty segments) is listed in `ignorado`, explained in `nota`, and the saved state of that part is kept. The whole body is capped at 100 MiB. A changed MCP list restarts a machine agent.',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: {
      params: AgentParams,
      body: { kind: 'json', schema: BundleBody, required: true, maxBytes: BUNDLE_BODY_MAX },
    },
    responses: {
      200: ok('Applied.', BundlePostResult),
      400: invalid('`body_invalido` or a path that escapes the bundle.'),
      404: notFound,
      413: invalid(`A file over ${MB(LIMITS.workspaceFileBytesMax)}.`),
    },
  }),
  defineRoute({
    operationId: 'getAgentMsgapp1',
    method: 'GET',
    path: `${AGENT}/msgapp1`,
    tag: 'agent-config',
    summary: 'List msgapp1 numbers',
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: { params: AgentParams },
    responses: { 200: ok('The numbers.', MsgappNumbers), 404: notFound },
  }),
  defineRoute({
    operationId: 'putAgentMsgapp1',
    method: 'PUT',
    path: `${AGENT}/msgapp1`,
    tag: 'agent-config',
    summary: 'Choose the msgapp1 numbers this agent answers',
    description:
      'A number answered by another agent moves to this one; unticking only silences, the pairing is kept. ' +
      "Our choices: the numbers come from the service's workspace config (`workspace.msgapp1.numbers` and `salesUrl` in config.json) and are shared by every agent of the service; `hasSales` is true when a `salesUrl` is set; an unknown number id is 400 `body_invalido`; `cambiados` counts the numbers whose pairing or silencing changed.",
    scope: 'agents:write',
    credential: 'agent-or-oauth',
    request: {
      params: AgentParams,
      body: { kind: 'json', schema: MsgappPutBody, required: true, maxBytes: JSON_BODY_MAX },
    },
    responses: {
      200: ok('The numbers, with `cambiados`.', MsgappNumbers),
      400: invalid('`body_invalido`.'),
      404: notFound,
    },
  }),
] as const;
