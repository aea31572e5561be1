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

/** What the person types to confirm deleting the account: their e-mail when known. */
export function deletePhrase(email: string | undefined): string {
  return email ?? 'delete my account';
}
