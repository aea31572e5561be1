import { z } from 'zod';
import { DEEP_LINK_SCHEME, type DeepLinkTarget } from '../core/host/platform/deep-link-format';

export type { DeepLinkTarget } from '../core/host/platform/deep-link-format';
// Longer than any real link; a longer string is refused before it is parsed.
const MAX_LINK_LENGTH = 512;
// Ids are opaque to the client, but never carry separators, dots or escapes: letters, digits, _ and -.
const Id = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);

const LinkParts = z.union([
  z.tuple([z.literal('agent'), Id]),
  z.tuple([z.literal('agent'), Id, z.literal('conversation'), Id]),
]);

/**
 * Parses `agentdesk://agent/<id>` and `agentdesk://agent/<id>/conversation/<sessionId>`; anything else
 * (other schemes, query strings, fragments, credentials, ports, escapes, extra segments) gives undefined.
 */
export function parseDeepLink(raw: unknown): DeepLinkTarget | undefined {
  if (typeof raw !== 'string' || raw.length > MAX_LINK_LENGTH) return undefined;
  // Parsed by hand rather than with URL: a custom scheme's host and path rules differ between runtimes.
  const prefix = `${DEEP_LINK_SCHEME}://`;
  if (!raw.toLowerCase().startsWith(prefix)) return undefined;
  const rest = raw.slice(prefix.length).replace(/\/$/, '');
  if (/[?#%@:\\\s]/.test(rest)) return undefined;
  const parsed = LinkParts.safeParse(rest.split('/'));
  if (!parsed.success) return undefined;
  const [, agentId, , sessionId] = parsed.data;
  return sessionId === undefined ? { agentId } : { agentId, sessionId };
}

/** The deep link among a launch's command-line arguments (Windows and Linux pass it there). */
export function deepLinkInArgs(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}://`));
}
