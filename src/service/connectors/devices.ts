import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { prepare } from '../db/statement';
import { sha256Hex } from '../security/token-hash';

export type Platform = 'ios' | 'android';
export type PushEnvironment = 'production' | 'sandbox';

/** APNs device tokens are hex (32 bytes today; longer allowed). */
const APNS_TOKEN = /^[0-9a-fA-F]{64,200}$/;
/** FCM registration tokens: URL-safe characters and `:`. */
const FCM_TOKEN = /^[A-Za-z0-9_:.-]{32,4096}$/;

/** Whether `token` looks like a push token of that platform (the local service cannot ask Apple or Google). */
export function isValidPushToken(token: string, platform: Platform): boolean {
  return platform === 'ios' ? APNS_TOKEN.test(token) : FCM_TOKEN.test(token);
}

/**
 * Push devices of a person. A device is identified by its push token; only the token's SHA-256 is kept
 * (the local service sends no pushes). Registering a token another person had moves it to this person:
 * one phone, one signed-in account.
 */
export function createDeviceStore(db: ServiceDatabase, clock: Clock) {
  const upsert = prepare(
    db,
    `INSERT INTO devices (token_hash, person_id, platform, environment, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (token_hash) DO UPDATE SET person_id = excluded.person_id, platform = excluded.platform,
       environment = excluded.environment, updated_at = excluded.updated_at`,
  );
  const remove = prepare(db, 'DELETE FROM devices WHERE token_hash = ? AND person_id = ?');
  const count = prepare<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM devices WHERE person_id = ?');
  return {
    async register(
      personId: string,
      token: string,
      platform: Platform,
      environment: PushEnvironment,
    ): Promise<void> {
      const now = clock.now();
      await upsert.run(sha256Hex(token), personId, platform, environment, now, now);
    },
    /** True when the person had that device. */
    async unregister(personId: string, token: string): Promise<boolean> {
      return (await remove.run(sha256Hex(token), personId)).changes > 0;
    },
    async count(personId: string): Promise<number> {
      return (await count.get(personId))!.n;
    },
  };
}

export type DeviceStore = ReturnType<typeof createDeviceStore>;
