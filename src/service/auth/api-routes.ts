import type { Scope } from '../../shared/api';

// TODO(contract): replace this table by the `routes` table of src/shared/api once it exists.
/** One `/api/v2` route: who may call it (AT = agent token or OAuth, OA = OAuth only) and with which scope. */
export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Spec path with `{param}` placeholders; a final `{path}` spans several segments. */
  path: string;
  scope: Scope;
  credential: 'AT' | 'OA';
}

const conv = '/api/v2/me/agents/{agentId}/conversations';
const session = `${conv}/{sessionId}`;

export const API_ROUTES: readonly ApiRoute[] = [
  { method: 'GET', path: '/api/v2/agents/{id}', scope: 'agents:read', credential: 'AT' },
  { method: 'PATCH', path: '/api/v2/agents/{id}', scope: 'agents:write', credential: 'AT' },
  { method: 'GET', path: '/api/v2/agents/{id}/files/{path}', scope: 'agents:read', credential: 'AT' },
  { method: 'PUT', path: '/api/v2/agents/{id}/files/{path}', scope: 'agents:write', credential: 'AT' },
  { method: 'DELETE', path: '/api/v2/agents/{id}/files/{path}', scope: 'agents:write', credential: 'AT' },
  { method: 'GET', path: '/api/v2/agents/{id}/skills', scope: 'agents:read', credential: 'AT' },
  { method: 'PUT', path: '/api/v2/agents/{id}/skills/{slug}', scope: 'agents:write', credential: 'AT' },
  { method: 'DELETE', path: '/api/v2/agents/{id}/skills/{slug}', scope: 'agents:write', credential: 'AT' },
  { method: 'GET', path: '/api/v2/agents/{id}/mcp', scope: 'agents:read', credential: 'AT' },
  { method: 'PUT', path: '/api/v2/agents/{id}/mcp', scope: 'agents:write', credential: 'AT' },
  { method: 'POST', path: '/api/v2/agents/{id}/restart', scope: 'agents:write', credential: 'AT' },
  { method: 'POST', path: '/api/v2/agents/{id}/try', scope: 'agents:write', credential: 'AT' },
  { method: 'GET', path: '/api/v2/agents/{id}/bundle', scope: 'agents:write', credential: 'AT' },
  { method: 'POST', path: '/api/v2/agents/{id}/bundle', scope: 'agents:write', credential: 'AT' },
  { method: 'GET', path: '/api/v2/agents/{id}/msgapp1', scope: 'agents:write', credential: 'AT' },
  { method: 'PUT', path: '/api/v2/agents/{id}/msgapp1', scope: 'agents:write', credential: 'AT' },
  { method: 'DELETE', path: '/api/v2/me', scope: 'agents:write', credential: 'OA' },
  { method: 'GET', path: '/api/v2/me/agents', scope: 'agents:read', credential: 'OA' },
  { method: 'GET', path: conv, scope: 'agents:read', credential: 'OA' },
  { method: 'POST', path: conv, scope: 'agents:write', credential: 'OA' },
  { method: 'GET', path: session, scope: 'agents:read', credential: 'OA' },
  { method: 'PATCH', path: session, scope: 'agents:write', credential: 'OA' },
  { method: 'DELETE', path: session, scope: 'agents:write', credential: 'OA' },
  { method: 'GET', path: `${session}/share`, scope: 'agents:read', credential: 'OA' },
  { method: 'POST', path: `${session}/share`, scope: 'agents:write', credential: 'OA' },
  { method: 'DELETE', path: `${session}/share`, scope: 'agents:write', credential: 'OA' },
  { method: 'POST', path: `${session}/messages`, scope: 'agents:write', credential: 'OA' },
  { method: 'GET', path: `${session}/events`, scope: 'agents:read', credential: 'OA' },
  { method: 'POST', path: `${session}/cancel`, scope: 'agents:write', credential: 'OA' },
  { method: 'POST', path: `${session}/permission`, scope: 'agents:write', credential: 'OA' },
  { method: 'POST', path: `${session}/model`, scope: 'agents:write', credential: 'OA' },
  { method: 'GET', path: `${session}/schedule`, scope: 'agents:read', credential: 'OA' },
  { method: 'POST', path: `${session}/schedule`, scope: 'agents:write', credential: 'OA' },
  { method: 'DELETE', path: `${session}/schedule/{id}`, scope: 'agents:write', credential: 'OA' },
  { method: 'GET', path: '/api/v2/me/files', scope: 'files', credential: 'OA' },
  { method: 'POST', path: '/api/v2/me/files', scope: 'files', credential: 'OA' },
  { method: 'GET', path: '/api/v2/me/files/{id}', scope: 'files', credential: 'OA' },
  { method: 'DELETE', path: '/api/v2/me/files/{id}', scope: 'files', credential: 'OA' },
  { method: 'POST', path: '/api/v2/me/stt', scope: 'files', credential: 'OA' },
  { method: 'GET', path: '/api/v2/me/connectors', scope: 'agents:read', credential: 'OA' },
  { method: 'POST', path: '/api/v2/me/connectors/{id}/start', scope: 'agents:write', credential: 'OA' },
  { method: 'DELETE', path: '/api/v2/me/connectors/{id}', scope: 'agents:write', credential: 'OA' },
  { method: 'POST', path: '/api/v2/me/devices', scope: 'agents:write', credential: 'OA' },
  { method: 'DELETE', path: '/api/v2/me/devices', scope: 'agents:write', credential: 'OA' },
];
