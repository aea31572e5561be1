import { userInfo } from 'node:os';
import { safeEqual } from '../security/token-hash';
import { DESKTOP_CLIENT_ID } from './clients';
import type { Identity } from './index';
import type { TokenResponse } from './oauth-tokens';
import { narrowScopes } from './scopes';
import { ownAccountSuffix } from '../../shared/api/own-account';

/**
 * The trust path of "This computer": the app that started this service in its own process signs its person
 * in without a password. It is a function, not an HTTP route, so no web page and no other process can reach
 * it at all; on top, the caller must present the launch secret the app generated and handed to
 * `startService` (in memory: never argv, environment or a file). A service started without one (`npm run
 * service`) has no trust path. See docs/security.md, "The app's own service".
 */

export type LaunchSignIn = { ok: true; tokens: TokenResponse } | { ok: false; reason: string };

export interface LaunchTrust {
  /** Tokens of the computer's owner for the desktop client, or why not. */
  signIn(presentedSecret: string | undefined, scope?: string): Promise<LaunchSignIn>;
}

/** A plain e-mail-shaped name for an owner made without a form: the system user at this computer. */
export function ownerEmail(): string {
  let name = 'me';
  try {
    name =
      userInfo()
        .username.toLowerCase()
        .replace(/[^a-z0-9._-]/g, '') || 'me';
  } catch {
    // no user name (a container): the plain default
  }
  return `${name}${ownAccountSuffix}`;
}

export function createLaunchTrust(identity: Identity, launchSecret: string | undefined): LaunchTrust {
  return {
    async signIn(presented, scope) {
      if (!launchSecret) return { ok: false, reason: 'this service was not started by the app' };
      if (typeof presented !== 'string' || !safeEqual(presented, launchSecret))
        return { ok: false, reason: 'wrong launch secret' };
      const client = await identity.clients.find(DESKTOP_CLIENT_ID);
      if (!client) return { ok: false, reason: 'the desktop client is not registered' };
      // The computer's owner is the first account made here; a fresh service makes one with no password.
      const owner =
        (await identity.persons.first()) ?? (await identity.persons.createWithoutPassword(ownerEmail()));
      const scopes = narrowScopes(scope, client.scopes).join(' ');
      const tokens = await identity.tokens.issuePair(
        identity.tokens.newFamilyId(),
        client.id,
        owner.id,
        scopes,
      );
      return { ok: true, tokens };
    },
  };
}
