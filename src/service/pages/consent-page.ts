import { html } from 'hono/html';
import { apiRoutes } from '../../shared/api';
import { SCOPE_DESCRIPTIONS, type Scope } from '../identity/scopes';
import { layout, type Html } from './layout';
import { signedInAs } from './signed-in-as';

export interface ConsentPageInput {
  csrf: string;
  clientName: string;
  email: string;
  scopes: Scope[];
  /** The validated authorize parameters, echoed back in hidden fields. */
  params: Record<string, string>;
}

/** Third-party clients always see this; first-party ones skip it. */
export function consentPage(input: ConsentPageInput): Html {
  return layout(
    'Allow access',
    html`<h1>Allow ${input.clientName} to use your account?</h1>
      <p>${signedInAs(input.email)}</p>
      ${
        input.scopes.length > 0
          ? html`<p>${input.clientName} asks to:</p>
              <ul class="scopes">
                ${input.scopes.map(
                  // In plain words: a scope's id says nothing to the person deciding.
                  (scope) => html`<li data-scope="${scope}">${SCOPE_DESCRIPTIONS[scope]}</li>`,
                )}
              </ul>`
          : html`<p>${input.clientName} asks for no permissions beyond signing you in.</p>`
      }
      ${decisionForm(input, 'Allow', 'Deny')}`,
  );
}

/** The answer form: the CSRF token and the validated authorize parameters echoed in hidden fields. */
function decisionForm(
  input: { csrf: string; params: Record<string, string> },
  yes: string,
  no: string,
): Html {
  return html`<form method="post" action="${apiRoutes.authorize.path}">
    <input type="hidden" name="csrf" value="${input.csrf}" />
    ${Object.entries(input.params).map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
    )}
    <button type="submit" name="decision" value="allow">${yes}</button>
    <button type="submit" name="decision" value="deny">${no}</button>
  </form>`;
}

/**
 * A first-party app asking from a loopback address while the browser is already signed in: the person
 * confirms with a click, so a page that starts the flow silently gets no code (RFC 8252 §8.6).
 */
export function continuePage(input: Omit<ConsentPageInput, 'scopes'>): Html {
  return layout(
    `Continue to ${input.clientName}`,
    html`<h1>Continue to ${input.clientName} as ${input.email}?</h1>
      <p>
        An application on this computer asks to sign in to your account. Continue only if you just started
        signing in to ${input.clientName}.
      </p>
      ${decisionForm(input, `Continue to ${input.clientName} as ${input.email}`, 'Cancel')}`,
  );
}
