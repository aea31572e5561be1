import { ownAccountSuffix } from '../../shared/api/own-account';
import { isEmail } from '../identity/persons';
import type { FieldErrors } from './sign-in-page';

/** What is wrong with a sign-in form before any password is checked, per field; undefined when nothing. */
export function signInProblems(email: string, password: string): FieldErrors | undefined {
  const errors: FieldErrors = {};
  if (!email.trim()) errors.email = 'Enter your e-mail address.';
  if (!password) errors.password = 'Enter your password.';
  return Object.keys(errors).length > 0 ? errors : undefined;
}

/** What is wrong with a new account's fields, per field, in words; undefined when they can be tried. */
export function newAccountProblems(
  email: string,
  password: string,
  password2: string,
): FieldErrors | undefined {
  const errors: FieldErrors = {};
  if (!email.trim()) errors.email = 'Enter your e-mail address.';
  else if (!isEmail(email.trim()))
    errors.email = 'This does not look like an e-mail address (name@example.com).';
  else if (email.trim().toLowerCase().endsWith(ownAccountSuffix))
    errors.email = `Addresses ending in ${ownAccountSuffix} name this computer's own account: use your e-mail address.`;
  if (password.length < 8) errors.password = 'Use at least 8 characters.';
  else if (password.length > 1024) errors.password = 'Use at most 1024 characters.';
  else if (password !== password2) errors.password2 = 'The two passwords differ.';
  return Object.keys(errors).length > 0 ? errors : undefined;
}
