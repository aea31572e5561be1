/**
 * Keeps tokens out of logs. Every logger in core passes its text through `redact()`.
 * Two layers: exact values core has seen (tokens, codes, verifiers are registered with
 * `rememberSecret` the moment they arrive) and patterns for secrets it never saw
 * (Bearer headers, token fields in JSON, forms and URLs, agent tokens).
 */

const MASK = '[redacted]';
// Shorter strings are too likely to be ordinary words to blank out everywhere.
const MIN_SECRET_LENGTH = 8;
// Tokens rotate hourly; keeping the most recent ones is enough and bounds memory.
const MAX_REMEMBERED = 512;

const remembered = new Set<string>();

/** Registers a secret value so any later log line containing it is masked. */
export function rememberSecret(value: string | undefined | null): void {
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  remembered.delete(value);
  remembered.add(value);
  if (remembered.size > MAX_REMEMBERED) {
    const oldest = remembered.values().next().value;
    if (oldest !== undefined) remembered.delete(oldest);
  }
}

const SECRET_FIELDS = 'access_token|refresh_token|id_token|code_verifier|client_secret|token|password';
// JSON also uses the camelCase names; `code` is left out there because ApiError has a harmless `code`.
const JSON_FIELDS = `${SECRET_FIELDS}|accessToken|refreshToken|codeVerifier`;
// In URLs and forms the authorization `code` is a secret too.
const FORM_FIELDS = `${SECRET_FIELDS}|code`;

const PATTERNS: RegExp[] = [
  // Authorization: Bearer xyz / Basic xyz
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi,
  // "access_token":"xyz" and friends in JSON
  new RegExp(`("(?:${JSON_FIELDS})"\\s*:\\s*")[^"]*(")`, 'gi'),
  // access_token=xyz in query strings and form bodies
  new RegExp(`\\b((?:${FORM_FIELDS})=)[^&\\s"']+`, 'gi'),
  // agent tokens
  /\bgat_[A-Za-z0-9_-]+/g,
];

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Returns `value` as text with every known or recognisable secret replaced by `[redacted]`. */
export function redact(value: unknown): string {
  let text = stringify(value);
  for (const secret of remembered) {
    if (text.includes(secret)) text = text.split(secret).join(MASK);
  }
  text = text.replace(PATTERNS[0]!, (_m, scheme: string) => `${scheme} ${MASK}`);
  text = text.replace(PATTERNS[1]!, (_m, head: string, tail: string) => `${head}${MASK}${tail}`);
  text = text.replace(PATTERNS[2]!, (_m, head: string) => `${head}${MASK}`);
  text = text.replace(PATTERNS[3]!, MASK);
  return text;
}
