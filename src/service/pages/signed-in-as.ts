import { html } from 'hono/html';
import { ownAccountUser } from '../../shared/api/own-account';
import type { Html } from './layout';

/** "Signed in as …": this computer's own account by its user's name, not the address only the service uses. */
export function signedInAs(email: string): Html {
  const user = ownAccountUser(email, true);
  return user !== undefined
    ? html`Signed in as <strong>${user}</strong>, on this computer.`
    : html`Signed in as <strong>${email}</strong>.`;
}
