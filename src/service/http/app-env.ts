import type { AuthInfo } from '../identity/principal';
import type { ClientInfo } from './forwarded';

/**
 * Hono environment shared by every route module: `c.get('auth')` is set by the /api/v2 guard, `c.get('client')`
 * (address, host and scheme, forwarded by a trusted proxy or not) for every request.
 */
export interface AppEnv {
  Variables: {
    auth: AuthInfo;
    client: ClientInfo;
  };
}
