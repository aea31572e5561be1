import { z } from 'zod';
import { DevicesBody, DevicesDeleteBody, IdParams } from '../requests';
import { ConnectorsResponse, ConnectorStartResult } from '../responses';
import { defineRoute, DEVICE_BODY_MAX, invalid, notFound, ok, okOurs } from './define-route';

/** Connectors and devices (credential OA; scopes are our choice). */
export const connectorsDevicesSection = [
  defineRoute({
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
  defineRoute({
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
  defineRoute({
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
  defineRoute({
    operationId: 'registerDevice',
    method: 'POST',
    path: '/api/v2/me/devices',
    tag: 'devices',
    summary: 'Register a push device',
    description:
      'Scope `agents:write` (our choice). Our choices: `entorno` defaults to `production`; an iOS token is 64 or more hex characters and an Android token 32 to 4096 of letters, digits, `-`, `_`, `:` and `.`, else 400 `token_invalido`; a wrong `plataforma` or `entorno` is 400 `body_invalido`; registering a token again updates it, and only its SHA-256 is stored (the local service sends no pushes).',
    scope: 'agents:write',
    credential: 'oauth',
    request: { body: { kind: 'json', schema: DevicesBody, required: true, maxBytes: DEVICE_BODY_MAX } },
    responses: {
      200: okOurs('Registered'),
      400: invalid('`token_invalido`, or `body_invalido` for the other fields.'),
    },
  }),
  defineRoute({
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
      body: { kind: 'json', schema: DevicesDeleteBody, required: false, maxBytes: DEVICE_BODY_MAX },
    },
    responses: { 204: ok('Unregistered.', 'empty'), 400: invalid('`token_invalido`.') },
  }),
] as const;
