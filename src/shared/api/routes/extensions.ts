import { z } from 'zod';
import { ErrorBody } from '../errors';
import { IdParams } from '../requests';
import { OAuthServerMetadata } from '../responses';
import { defineRoute, notFound, ok } from './define-route';

/** Our extensions: not in the spec, each marked `extension: true` (kept out of the spec-coverage list).
 * Clients must cope with a server that lacks them. */
export const extensionsSection = [
  defineRoute({
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
  defineRoute({
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
] as const;
