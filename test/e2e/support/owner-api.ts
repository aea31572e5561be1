import type { RunningService } from '../../../src/service/index';
import { DESKTOP_CLIENT_ID } from '../../support/local-service';

/**
 * The API as the computer's owner on a service that trusts the app (no password to sign in with): a token
 * of the desktop client minted in this process, a second client of the same person. Specs read back
 * through it what the app did.
 */
export function ownerApi(service: RunningService) {
  const { identity } = service.context;
  let token: string | undefined;
  return async (path: string, init: RequestInit = {}): Promise<Response> => {
    const owner = await identity.persons.first();
    if (!owner) throw new Error('no owner yet: start the app first');
    token ??= (
      await identity.tokens.issuePair(
        identity.tokens.newFamilyId(),
        DESKTOP_CLIENT_ID,
        owner.id,
        'profile agents:read agents:write',
      )
    ).access_token;
    return fetch(`${service.url}${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(init.body ? { 'Content-Type': 'application/json' } : {}),
        ...(init.headers as Record<string, string>),
      },
    });
  };
}
