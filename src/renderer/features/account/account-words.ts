import type { Scope } from '../../../shared/api';
import type { ServiceProfile } from '../../../shared/bridge';
import { ownAccountUser } from '../../../shared/api/own-account';

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

const ownUser = (email: string | undefined, profile: ServiceProfile | null | undefined) =>
  ownAccountUser(email, profile?.kind === 'local');

/** Whether this is this computer's own account: made with no form and no password, so no page of the service can sign it in. */
export const isOwnAccount = (
  email: string | undefined,
  profile: ServiceProfile | null | undefined,
): boolean => ownUser(email, profile) !== undefined;

/** Who is signed in, in words: this computer's own account by its user's name, any other by its e-mail. */
export function whoWords(
  email: string | undefined,
  profile: ServiceProfile | null | undefined,
): string | undefined {
  const user = ownUser(email, profile);
  return user !== undefined ? `${user}, on this computer` : email;
}

/** What the person types to confirm deleting the account: their e-mail when it is one they gave. */
export function deletePhrase(email: string | undefined, profile: ServiceProfile | null | undefined): string {
  return !email || ownUser(email, profile) !== undefined ? 'delete my account' : email;
}
