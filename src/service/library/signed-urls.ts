import { createHmac, timingSafeEqual } from 'node:crypto';
import { apiRoutes, LIMITS, routePath } from '../../shared/api';

export type SignatureCheck = 'ok' | 'tampered' | 'expired';

function signature(key: Buffer, fileId: string, exp: number): string {
  return createHmac('sha256', key).update(`archivo\n${fileId}\n${exp}`).digest('base64url');
}

/**
 * A URL for one account file, valid 6 hours from `now`: `<base>/files/<id>?exp=<unix s>&sig=<HMAC>`.
 * The HMAC (SHA-256, service key) covers the file id and the expiry, so neither can be changed.
 */
export function signFileUrl(key: Buffer, baseUrl: string, fileId: string, now: number): string {
  const exp = Math.floor((now + LIMITS.signedUrlTtlMs) / 1000);
  const sig = signature(key, fileId, exp);
  // The public path of a signed account file (no bearer: the signature is the credential).
  return `${baseUrl}${routePath(apiRoutes.downloadSignedFile, { id: fileId }, { exp: String(exp), sig })}`;
}

/** Checks the signature first (a changed `exp` is tampering), then the expiry against `now`. */
export function checkFileSignature(
  key: Buffer,
  fileId: string,
  exp: string | undefined,
  sig: string | undefined,
  now: number,
): SignatureCheck {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return 'tampered';
  const expected = Buffer.from(signature(key, fileId, Number(exp)), 'utf8');
  const given = Buffer.from(sig, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'tampered';
  return Number(exp) * 1000 > now ? 'ok' : 'expired';
}
