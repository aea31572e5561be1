import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { createAgentTokenStore } from './agent-tokens';
import { createAgentStore } from './agents';
import { createCodeStore } from './authorization-codes';
import { createInviteStore } from './invites';
import { createBrowserSessionStore } from './browser-sessions';
import { createClientStore } from './clients';
import { createOAuthTokenStore } from './oauth-tokens';
import { createPersonStore } from './persons';
import { createSignInInteractions } from './sign-in-interactions';
import { createSignInThrottle, type SignInThrottleConfig } from './sign-in-throttle';
import { createTokenCache } from './token-cache';

/** Every identity store, built over one database and one clock. */
export function createIdentity(
  db: ServiceDatabase,
  clock: Clock,
  options: { signInThrottle?: SignInThrottleConfig } = {},
) {
  // Validated bearer tokens, believed for a few seconds (token-cache.ts); every revocation here forgets them.
  const tokenCache = createTokenCache(clock);
  return {
    tokenCache,
    persons: createPersonStore(db, clock),
    clients: createClientStore(db, clock),
    codes: createCodeStore(db, clock),
    tokens: createOAuthTokenStore(db, clock, tokenCache),
    sessions: createBrowserSessionStore(db, clock),
    agents: createAgentStore(db, clock, tokenCache),
    agentTokens: createAgentTokenStore(db, clock, tokenCache),
    signInThrottle: createSignInThrottle(db, clock, options.signInThrottle),
    invites: createInviteStore(db, clock),
    signInInteractions: createSignInInteractions(clock),
  };
}

export type Identity = ReturnType<typeof createIdentity>;
