/**
 * This computer's own account: the one our local service makes for the person who started the app, with
 * no form and no password (our service's convention, not the spec's: another server has no such account). Its e-mail is an address only the service uses, never words for a person:
 * the app, the CLI and the service's pages name it by its user instead.
 */

/** What ends the e-mail of this computer's own account (`ana@this-computer`). */
export const ownAccountSuffix = '@this-computer';

/** The user's name when `email` is this computer's own account on this computer's service, else undefined. */
export function ownAccountUser(email: string | undefined, onThisComputer: boolean): string | undefined {
  return onThisComputer && email?.endsWith(ownAccountSuffix)
    ? email.slice(0, -ownAccountSuffix.length)
    : undefined;
}
