import { LIMITS } from '../../shared/api/limits';

/** Renew a link this long before it expires, so a copied link still works for a while. */
export const RENEW_MARGIN_MS = 10 * 60 * 1000;

/**
 * When a signed file URL stops working (epoch ms). The spec gives 6 hours from when it was handed out;
 * a URL that carries its own `exp` (Unix seconds, as the local service's do) may say earlier.
 */
export function signedUrlExpiry(url: string, receivedAt: number): number {
  const byTtl = receivedAt + LIMITS.signedUrlTtlMs;
  try {
    const exp = Number(new URL(url).searchParams.get('exp'));
    return Number.isFinite(exp) && exp > 0 ? Math.min(byTtl, exp * 1000) : byTtl;
  } catch {
    return byTtl;
  }
}

export function needsRenewal(expiresAt: number, now: number): boolean {
  return expiresAt - now < RENEW_MARGIN_MS;
}
