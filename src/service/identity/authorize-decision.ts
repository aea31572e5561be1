import { apiRoutes, routePath } from '../../shared/api';
import type { Identity } from '.';
import { checkAuthorizeRequest, redirectWith, type AuthorizeRequest } from './authorize-request';
import { isLoopbackRedirect } from './redirect-uri';
import type { Scope } from './scopes';

/** The browser session an authorize request arrives with, if any (the route reads its cookie). */
export interface AuthorizeSession {
  personId: string | null;
  secret: string;
}

/** What the authorize endpoint does next; the route turns each into a page or a redirect. */
export type AuthorizeStep =
  /** Unknown client, unregistered or ambiguous return address: a page, never a redirect (RFC 6749 §4.1.2.1). */
  | { kind: 'error_page'; title: string; sentence: string }
  /** Back to the client: with a code, or with `error` (and `state`). */
  | { kind: 'redirect'; location: string }
  /** Nobody signed in: the sign-in page, or the first-run page while the service has no account. */
  | { kind: 'sign_in'; firstRun: boolean; next: string; clientName: string }
  /** Signed in to a first-party app whose return address proves nothing: the person clicks Continue. */
  | { kind: 'continue'; clientName: string; email: string; params: Record<string, string> }
  /** Signed in, another app: the consent page. */
  | { kind: 'consent'; clientName: string; email: string; scopes: Scope[]; params: Record<string, string> };

/**
 * GET /oauth2/authorize (first arrival, after sign-in) and the consent form's answer (`decision`):
 * checks the request, then issues a 60 s code, asks who is there, or asks for consent.
 * `repeated` names the query parameters given more than once.
 */
export async function decideAuthorize(
  identity: Pick<Identity, 'clients' | 'codes' | 'persons' | 'signInInteractions'>,
  input: Record<string, string | undefined>,
  session: AuthorizeSession | null,
  decision?: 'allow' | 'deny',
  repeated: readonly string[] = [],
): Promise<AuthorizeStep> {
  const check = await checkAuthorizeRequest(identity.clients, input, repeated);
  if (check.kind === 'page') return { kind: 'error_page', title: check.title, sentence: check.sentence };
  if (check.kind === 'redirect') {
    const { redirectUri, error, description, state } = check;
    return back(redirectUri, { error, error_description: description, state });
  }
  const { request } = check;
  const next = routePath(apiRoutes.authorize, {}, request.params);
  const person = session?.personId ? await identity.persons.findById(session.personId) : null;
  if (!person)
    return {
      kind: 'sign_in',
      firstRun: (await identity.persons.count()) === 0,
      next,
      clientName: request.client.name,
    };
  if (decision === 'allow') return issueCode(identity, request, person.id);
  if (decision !== undefined) {
    return back(request.redirectUri, {
      error: 'access_denied',
      error_description: 'The person did not allow access.',
      state: request.state,
    });
  }
  const shown = { clientName: request.client.name, email: person.email, params: request.params };
  if (!request.client.firstParty) return { kind: 'consent', ...shown, scopes: request.scopes };
  // A public client's loopback redirect proves nothing about who listens there: without the password just
  // typed for this very request, the person clicks "Continue" (a confidential client proves itself later).
  const interacted = session !== null && identity.signInInteractions.consume(session.secret, next);
  const proven = request.client.confidential || !isLoopbackRedirect(request.redirectUri);
  if (interacted || proven) return issueCode(identity, request, person.id);
  return { kind: 'continue', ...shown };
}

/** Signed in and allowed: a 60 s code back to the client. */
async function issueCode(
  identity: Pick<Identity, 'codes'>,
  request: AuthorizeRequest,
  personId: string,
): Promise<AuthorizeStep> {
  const code = await identity.codes.issue({
    clientId: request.client.id,
    personId,
    redirectUri: request.redirectUri,
    scope: request.scopes.join(' '),
    codeChallenge: request.codeChallenge,
  });
  return back(request.redirectUri, { code, state: request.state });
}

function back(redirectUri: string, params: Record<string, string | undefined>): AuthorizeStep {
  return { kind: 'redirect', location: redirectWith(redirectUri, params) };
}
