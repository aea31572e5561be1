import type { Scope } from '../../../shared/api';
import type { ServiceProfile } from '../../../shared/bridge';

/** What each granted scope lets AgentDesk do, in the person's words. */
export const scopeWords: Record<Scope, string> = {
  profile: 'Know who you are (your e-mail)',
  'agents:read': 'See your agents and read your conversations',
  'agents:write': 'Send and schedule messages, share conversations and delete the account',
  files: 'Use your file library and dictation',
};

/** "This computer" or the server's address. */
export function serverWords(profile: ServiceProfile | null | undefined): string {
  if (!profile) return 'No server chosen';
  if (profile.kind === 'local')
    return profile.baseUrl ? `This computer (${profile.baseUrl})` : 'This computer';
  return profile.baseUrl;
}

/** The e-mail our service gives the account it makes for this computer's own user, without a form. */
const ownAccountSuffix = '@this-computer';

const isOwnAccount = (email: string | undefined, profile: ServiceProfile | null | undefined): boolean =>
  profile?.kind === 'local' && !!email?.endsWith(ownAccountSuffix);

/** Who is signed in, in words: this computer's own account by its user's name, any other by its e-mail. */
export function whoWords(
  email: string | undefined,
  profile: ServiceProfile | null | undefined,
): string | undefined {
  return isOwnAccount(email, profile)
    ? `${email!.slice(0, -ownAccountSuffix.length)}, on this computer`
    : email;
}

/** What the person types to confirm deleting the account: their e-mail when it is one they gave. */
export function deletePhrase(email: string | undefined, profile: ServiceProfile | null | undefined): string {
  return !email || isOwnAccount(email, profile) ? 'delete my account' : email;
}
