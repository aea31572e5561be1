import { html } from 'hono/html';
import { layout, type Html } from './layout';

export interface SignInPageInput {
  csrf: string;
  next: string;
  email?: string;
  error?: string;
  clientName?: string;
}

/** The fields both account forms start with: the CSRF token, where to go next, and the e-mail. */
function csrfAndEmailFields(input: { csrf: string; next: string; email?: string }): Html {
  return html`<input type="hidden" name="csrf" value="${input.csrf}" />
    <input type="hidden" name="next" value="${input.next}" />
    <label for="email">E-mail</label>
    <input
      id="email"
      name="email"
      type="email"
      autocomplete="username"
      required
      value="${input.email ?? ''}"
    />`;
}

function errorLine(error: string | undefined): Html | '' {
  return error ? html`<p class="error" role="alert">${error}</p>` : '';
}

export function signInPage(input: SignInPageInput): Html {
  return layout(
    'Sign in',
    html`<h1>Sign in</h1>
      ${input.clientName ? html`<p>to continue to <strong>${input.clientName}</strong></p>` : ''}
      ${errorLine(input.error)}
      <form method="post" action="/signin">
        ${csrfAndEmailFields(input)}
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
      </form>`,
  );
}

export interface FirstRunPageInput {
  csrf: string;
  next: string;
  email?: string;
  error?: string;
}

/** Shown instead of the sign-in page while no account exists. */
export function firstRunPage(input: FirstRunPageInput): Html {
  return layout(
    'Create your account',
    html`<h1>Create your account</h1>
      <p>This local service has no account yet. The first account is yours.</p>
      ${errorLine(input.error)}
      <form method="post" action="/first-run">
        ${csrfAndEmailFields(input)}
        <label for="password">Password (at least 8 characters)</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          minlength="8"
          required
        />
        <label for="password2">Repeat the password</label>
        <input
          id="password2"
          name="password2"
          type="password"
          autocomplete="new-password"
          minlength="8"
          required
        />
        <button type="submit">Create account</button>
      </form>`,
  );
}
