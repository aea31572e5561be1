import type { AuthInfo } from '../auth/principal';

/** Hono environment shared by every route module: `c.get('auth')` is set by the /api/v2 guard. */
export interface AppEnv {
  Variables: {
    auth: AuthInfo;
  };
}
