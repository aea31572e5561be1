import { apiRoutes } from '../../shared/api';

/**
 * OAuth (spec section). Sign-in itself runs through oauth4webapi (core/auth/pkce.ts); this gives it the
 * endpoints' paths from the route table, to be put under the server's base URL (path included).
 */
export const oauthEndpointPaths = {
  authorize: apiRoutes.authorize.path,
  token: apiRoutes.token.path,
  revoke: apiRoutes.revoke.path,
} as const;
