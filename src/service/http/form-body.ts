import { FORM_BODY_MAX } from '../../shared/api';
import { decodeUtf8, readBodyLimited } from './read-body';

/** OAuth and page forms are small; anything bigger is refused before it is read in full. */
export const FORM_MAX_BYTES = FORM_BODY_MAX;

export type FormResult =
  | { ok: true; fields: Record<string, string> }
  | { ok: false; reason: 'content_type' | 'too_large' | 'encoding' | 'repeated'; detail: string };

/**
 * An `application/x-www-form-urlencoded` body as a plain map. Refuses other content types, bodies over
 * the cap, bytes or %-escapes that are not UTF-8, and a parameter given twice (RFC 6749 §3.1, §3.2).
 */
export async function readForm(request: Request, maxBytes = FORM_MAX_BYTES): Promise<FormResult> {
  const type = (request.headers.get('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return {
      ok: false,
      reason: 'content_type',
      detail: 'The body must be application/x-www-form-urlencoded.',
    };
  }
  const bytes = await readBodyLimited(request, maxBytes);
  if (bytes === 'too_large') {
    return { ok: false, reason: 'too_large', detail: `The body is larger than ${maxBytes} bytes.` };
  }
  const text = decodeUtf8(bytes);
  if (text === null) return { ok: false, reason: 'encoding', detail: 'The body is not valid UTF-8.' };
  // No prototype: a parameter named `__proto__` is just a name.
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decodeFormComponent(equals === -1 ? pair : pair.slice(0, equals));
    const value = decodeFormComponent(equals === -1 ? '' : pair.slice(equals + 1));
    if (name === null || value === null) {
      return { ok: false, reason: 'encoding', detail: 'The body has a %-escape that is not UTF-8.' };
    }
    if (Object.hasOwn(fields, name)) {
      return { ok: false, reason: 'repeated', detail: `The parameter ${name} is given more than once.` };
    }
    fields[name] = value;
  }
  return { ok: true, fields };
}

function decodeFormComponent(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}
