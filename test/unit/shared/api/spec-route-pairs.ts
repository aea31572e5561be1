/**
 * Every method + path pair of ../shared/spec/api-v2.md, typed out by hand from its Endpoints
 * tables (`...` expanded), with the scope and credential column. Tests compare the route table
 * and the OpenAPI document against this list.
 */
const conv = '/api/v2/me/agents/{agentId}/conversations';
const session = `${conv}/{sessionId}`;

export type SpecCredential = 'agent-or-oauth' | 'oauth' | 'none';

export const SPEC_ROUTE_PAIRS: readonly [
  method: string,
  path: string,
  scope: string | null,
  SpecCredential,
][] = [
  ['GET', '/api/v2/agents/{id}', 'agents:read', 'agent-or-oauth'],
  ['PATCH', '/api/v2/agents/{id}', 'agents:write', 'agent-or-oauth'],
  ['GET', '/api/v2/agents/{id}/files/{path}', 'agents:read', 'agent-or-oauth'],
  ['PUT', '/api/v2/agents/{id}/files/{path}', 'agents:write', 'agent-or-oauth'],
  ['DELETE', '/api/v2/agents/{id}/files/{path}', 'agents:write', 'agent-or-oauth'],
  ['GET', '/api/v2/agents/{id}/skills', 'agents:read', 'agent-or-oauth'],
  ['PUT', '/api/v2/agents/{id}/skills/{slug}', 'agents:write', 'agent-or-oauth'],
  ['DELETE', '/api/v2/agents/{id}/skills/{slug}', 'agents:write', 'agent-or-oauth'],
  ['GET', '/api/v2/agents/{id}/mcp', 'agents:read', 'agent-or-oauth'],
  ['PUT', '/api/v2/agents/{id}/mcp', 'agents:write', 'agent-or-oauth'],
  ['POST', '/api/v2/agents/{id}/restart', 'agents:write', 'agent-or-oauth'],
  ['POST', '/api/v2/agents/{id}/try', 'agents:write', 'agent-or-oauth'],
  ['GET', '/api/v2/agents/{id}/bundle', 'agents:write', 'agent-or-oauth'],
  ['POST', '/api/v2/agents/{id}/bundle', 'agents:write', 'agent-or-oauth'],
  ['GET', '/api/v2/agents/{id}/msgapp1', 'agents:write', 'agent-or-oauth'],
  ['PUT', '/api/v2/agents/{id}/msgapp1', 'agents:write', 'agent-or-oauth'],
  ['DELETE', '/api/v2/me', 'agents:write', 'oauth'],
  ['GET', '/api/v2/me/agents', 'agents:read', 'oauth'],
  ['GET', conv, 'agents:read', 'oauth'],
  ['POST', conv, 'agents:write', 'oauth'],
  ['GET', session, 'agents:read', 'oauth'],
  ['PATCH', session, 'agents:write', 'oauth'],
  ['DELETE', session, 'agents:write', 'oauth'],
  ['GET', `${session}/share`, 'agents:read', 'oauth'],
  ['POST', `${session}/share`, 'agents:write', 'oauth'],
  ['DELETE', `${session}/share`, 'agents:write', 'oauth'],
  ['POST', `${session}/messages`, 'agents:write', 'oauth'],
  ['GET', `${session}/events`, 'agents:read', 'oauth'],
  ['POST', `${session}/cancel`, 'agents:write', 'oauth'],
  ['POST', `${session}/permission`, 'agents:write', 'oauth'],
  ['POST', `${session}/model`, 'agents:write', 'oauth'],
  ['GET', `${session}/schedule`, 'agents:read', 'oauth'],
  ['POST', `${session}/schedule`, 'agents:write', 'oauth'],
  ['DELETE', `${session}/schedule/{id}`, 'agents:write', 'oauth'],
  ['GET', '/api/v2/me/files', 'files', 'oauth'],
  ['POST', '/api/v2/me/files', 'files', 'oauth'],
  ['GET', '/api/v2/me/files/{id}', 'files', 'oauth'],
  ['DELETE', '/api/v2/me/files/{id}', 'files', 'oauth'],
  ['POST', '/api/v2/me/stt', 'files', 'oauth'],
  // Connector and device scopes are not shown by the spec: ours.
  ['GET', '/api/v2/me/connectors', 'agents:read', 'oauth'],
  ['POST', '/api/v2/me/connectors/{id}/start', 'agents:write', 'oauth'],
  ['DELETE', '/api/v2/me/connectors/{id}', 'agents:write', 'oauth'],
  ['POST', '/api/v2/me/devices', 'agents:write', 'oauth'],
  ['DELETE', '/api/v2/me/devices', 'agents:write', 'oauth'],
  ['GET', '/oauth2/authorize', null, 'none'],
  ['POST', '/oauth2/token', null, 'none'],
  ['POST', '/oauth2/revoke', null, 'none'],
  ['GET', '/oauth2/proveedores', null, 'none'],
  ['GET', '/s/{slug}', null, 'none'],
  ['GET', '/openapi.yaml', null, 'none'],
];
