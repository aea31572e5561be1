import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** An OAuth client registered through the config file (in addition to `client add`). */
export interface ConfiguredClient {
  client_id: string;
  name: string;
  redirect_uris: string[];
  /** Space-separated scope ceiling. */
  scopes: string;
  first_party?: boolean;
  /** SHA-256 (hex) of the secret for a confidential client; absent for a public one. */
  client_secret_sha256?: string;
}

/**
 * Service settings: `<dataDir>/config.json`, overridden by flags / `startService` options.
 * Other areas read their own keys (e.g. `engineCommand`); unknown keys are kept.
 */
export interface ServiceConfig {
  port?: number;
  clients?: ConfiguredClient[];
  /** The https origin people reach the service at (`--public-url`); absent: loopback only. See ./serving. */
  publicUrl?: string;
  /** Proxies whose X-Forwarded-* headers are believed: addresses, CIDR ranges, or a comma-separated string. */
  trustedProxies?: string | string[];
  /** Interface to listen on; default `127.0.0.1`. */
  bind?: string;
  /** `{ freeFailures, firstDelaySeconds }` of the sign-in throttle. */
  signInThrottle?: { freeFailures?: number; firstDelaySeconds?: number };
  /** A postgres:// URL: every table in PostgreSQL (`--database`; else DATABASE_URL); absent: `<dataDir>/service.db`. */
  database?: string;
  [key: string]: unknown;
}

export const CONFIG_FILE_NAME = 'config.json';

/** Reads `<dataDir>/config.json`; a missing file is an empty config, a malformed one is an error. */
export async function readConfigFile(dataDir: string): Promise<ServiceConfig> {
  const path = join(dataDir, CONFIG_FILE_NAME);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${path} must hold a JSON object`);
  }
  return parsed as ServiceConfig;
}
