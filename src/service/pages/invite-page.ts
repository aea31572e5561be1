import { html } from 'hono/html';
import { layout, type Html } from './layout';

export interface InvitePageInput {
  csrf: string;
  code: string;
  email: string;
  error?: string;
}

/** Where an invited person chooses the password of the account made for their e-mail. */
export function invitePage(input: InvitePageInput): Html {
  return layout(
    'Create your account',
    html`<h1>Create your account</h1>
      <p>You were invited to this AgentDesk server as <strong>${input.email}</strong>. Choose a password.</p>
      ${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ''}
      <form method="post" action="/invite">
        <input type="hidden" name="csrf" value="${input.csrf}" />
        <input type="hidden" name="code" value="${input.code}" />
        <input type="hidden" name="email" autocomplete="username" value="${input.email}" />
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
