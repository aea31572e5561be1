import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where PostgreSQL's server programs (initdb, pg_ctl, postgres) live: $AGENTDESK_POSTGRES_BIN, else
 * Debian's /usr/lib/postgresql/<newest>/bin (Debian keeps them off PATH), else /usr/local/bin and
 * /usr/bin. Undefined when there is no initdb anywhere.
 */
export function postgresBinDir(): string | undefined {
  const fromEnv = process.env['AGENTDESK_POSTGRES_BIN'];
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : undefined;
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const candidates = [...versions.map((v) => join(debian, v, 'bin')), '/usr/local/bin', '/usr/bin'];
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}
