import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Seals provider tokens with AES-256-GCM before they reach the database. Unlike our own tokens, a
 * provider's token must be recoverable (to call the provider and to revoke it), so it cannot be a hash.
 * Sealed form: `v1.<iv>.<tag>.<ciphertext>`, base64url parts.
 */
export function createTokenSealer(key: Buffer) {
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed: string): string {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed token');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

export type TokenSealer = ReturnType<typeof createTokenSealer>;
