import { html } from 'hono/html';
import { layout, type Html } from './layout';

/** A sentence per field that needs fixing; `form` for what concerns the whole form. Shown in the page. */
export interface FieldErrors {
  form?: string;
  email?: string;
  password?: string;
  password2?: string;
}

export interface SignInPageInput {
  csrf: string;
  next: string;
  email?: string;
  /** The whole form's error (kept for callers that have one sentence). */
  error?: string;
  errors?: FieldErrors;
  clientName?: string;
}

type FieldName = Exclude<keyof FieldErrors, 'form'>;

/** The attributes and the sentence that tie a field to its error, so a screen reader reads them together. */
function fieldError(errors: FieldErrors, name: FieldName): { invalid: string; line: Html | '' } {
  const sentence = errors[name];
  if (!sentence) return { invalid: 'false', line: '' };
  return {
    invalid: 'true',
    line: html`<p class="field-error" id="${name}-error">${sentence}</p>`,
  };
}

/** The fields both account forms start with: the CSRF token, where to go next, and the e-mail. */
function csrfAndEmailFields(
  input: { csrf: string; next: string; email?: string },
  errors: FieldErrors,
): Html {
  const email = fieldError(errors, 'email');
  return html`<input type="hidden" name="csrf" value="${input.csrf}" />
    <input type="hidden" name="next" value="${input.next}" />
    <label for="email">E-mail</label>
    <input
      id="email"
      name="email"
      type="email"
      autocomplete="username"
      aria-invalid="${email.invalid}"
      aria-describedby="email-error"
      value="${input.email ?? ''}"
    />
    ${email.line}`;
}

function passwordField(
  errors: FieldErrors,
  name: 'password' | 'password2',
  label: string,
  autocomplete: string,
): Html {
  const error = fieldError(errors, name);
  return html`<label for="${name}">${label}</label>
    <input
      id="${name}"
      name="${name}"
      type="password"
      autocomplete="${autocomplete}"
      aria-invalid="${error.invalid}"
      aria-describedby="${name}-error"
    />
    ${error.line}`;
}

/** The whole form's error at its top, announced when the page loads. */
function formError(errors: FieldErrors): Html | '' {
  return errors.form ? html`<p class="error" role="alert">${errors.form}</p>` : '';
}

const errorsOf = (input: { error?: string; errors?: FieldErrors }): FieldErrors => ({
  ...(input.error ? { form: input.error } : {}),
  ...input.errors,
});

// `novalidate`: the service checks every field and says what is wrong in the page, in words, instead of the
// browser's own bubble on one field at a time.
export function signInPage(input: SignInPageInput): Html {
  const errors = errorsOf(input);
  return layout(
    'Sign in',
    html`<h1>Sign in</h1>
      ${input.clientName ? html`<p>to continue to <strong>${input.clientName}</strong></p>` : ''}
      ${formError(errors)}
      <form method="post" action="/signin" novalidate>
        ${csrfAndEmailFields(input, errors)}
        ${passwordField(errors, 'password', 'Password', 'current-password')}
        <button type="submit" class="primary">Sign in</button>
      </form>`,
  );
}

export interface FirstRunPageInput {
  csrf: string;
  next: string;
  email?: string;
  error?: string;
  errors?: FieldErrors;
}

/** Shown instead of the sign-in page while no account exists. */
export function firstRunPage(input: FirstRunPageInput): Html {
  const errors = errorsOf(input);
  return layout(
    'Create your account',
    html`<h1>Create your account</h1>
      <p>This service has no account yet. The first account is yours.</p>
      ${formError(errors)}
      <form method="post" action="/first-run" novalidate>
        ${csrfAndEmailFields(input, errors)}
        ${passwordField(errors, 'password', 'Password (at least 8 characters)', 'new-password')}
        ${passwordField(errors, 'password2', 'Repeat the password', 'new-password')}
        <button type="submit" class="primary">Create account</button>
      </form>`,
  );
}
