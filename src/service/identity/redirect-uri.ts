/**
 * Whether `requested` is one of the client's registered redirect URIs.
 * A registered `http://127.0.0.1/...` URI accepts any port (RFC 8252 §7.3); everything else must match exactly.
 */
export function redirectUriAllowed(registered: readonly string[], requested: string): boolean {
  return registered.some((uri) => uri === requested || loopbackMatch(uri, requested));
}

function loopbackMatch(registered: string, requested: string): boolean {
  const base = parse(registered);
  const asked = parse(requested);
  if (!base || !asked) return false;
  if (base.protocol !== 'http:' || base.hostname !== '127.0.0.1' || base.port !== '') return false;
  if (asked.protocol !== 'http:' || asked.hostname !== '127.0.0.1') return false;
  // Only the port may differ: same path, query and fragment, no user info, and the text must be canonical
  // (URL parsing forgives things like `http://127.0.0.1:80/callback/../callback`; exact text does not).
  const canonical = `http://127.0.0.1${asked.port ? `:${asked.port}` : ''}${base.pathname}${base.search}`;
  return requested === canonical && asked.username === '' && asked.password === '';
}

function parse(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** A redirect to this computer: any page the person opens could have a listener there (RFC 8252 §8.6). */
export function isLoopbackRedirect(uri: string): boolean {
  const url = parse(uri);
  return url !== null && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}
