import { ALL_SCOPES, type Scope } from '../../shared/api';

export { ALL_SCOPES, type Scope };

/** Human sentences for the consent page. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  profile: 'Know who you are (id and e-mail).',
  'agents:read': 'List your agents, read conversations, follow their events.',
  'agents:write': 'Send messages, cancel, answer permissions, schedule, share, delete your account.',
  files: 'Upload and read your account files, transcribe audio.',
};

/** The distinct words of a space-separated scope string (unknown words kept; narrowing drops them). */
export function splitScopes(text: string | undefined | null): string[] {
  return [...new Set((text ?? '').split(' ').filter((part) => part.length > 0))];
}

/** Requested scopes narrowed to the client's ceiling, never failing; an absent request means the whole ceiling. */
export function narrowScopes(requested: string | undefined, ceiling: readonly string[]): Scope[] {
  if (requested === undefined || requested.trim() === '')
    return ALL_SCOPES.filter((s) => ceiling.includes(s));
  const wanted = splitScopes(requested);
  return ALL_SCOPES.filter((scope) => wanted.includes(scope) && ceiling.includes(scope));
}
