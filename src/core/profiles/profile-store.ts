import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { AddCustomProfileInput, DeskError, ProfilesState, ServiceProfile } from '../../shared/bridge';
import { err, ok } from '../common/result';
import { setAsideSync } from '../common/set-aside';
import type { Result } from '../common/result';

/**
 * The remembered service profiles and which one is active, kept in one JSON
 * file in the app's data folder. Invariant: the file never holds a secret, and
 * it always holds either the old or the new list (temp file + rename).
 */

/** The first-party public client every AgentDesk program signs in as. */
export const DESKTOP_CLIENT_ID = 'agentdesk-desktop';
export const LOCAL_PROFILE_ID = 'local';
export const LOCAL_PROFILE_NAME = 'This computer';

const StoredProfile = z.discriminatedUnion('kind', [
  z.object({
    id: z.string().min(1),
    kind: z.literal('local'),
    name: z.string(),
    clientId: z.string().min(1),
  }),
  z.object({
    id: z.string().min(1),
    kind: z.literal('custom'),
    name: z.string(),
    baseUrl: z.string().min(1),
    clientId: z.string().min(1),
    loopbackPorts: z.array(z.int().min(1).max(65535)).optional(),
  }),
]);
type StoredProfile = z.infer<typeof StoredProfile>;

const ProfilesFile = z.object({
  version: z.literal(1),
  activeProfileId: z.string().nullable(),
  profiles: z.array(StoredProfile),
});
type ProfilesFile = z.infer<typeof ProfilesFile>;

export interface ProfileStore {
  state(): ProfilesState;
  get(profileId: string): ServiceProfile | undefined;
  active(): ServiceProfile | undefined;
  /** Adds "this computer" once (later calls return it) and makes it active. */
  addLocal(): Promise<ServiceProfile>;
  /** Adds a custom server (or returns the same server+client already kept) and makes it active. */
  addCustom(input: AddCustomProfileInput): Promise<Result<ServiceProfile, DeskError>>;
  setActive(profileId: string): Promise<Result<ServiceProfile, DeskError>>;
  remove(profileId: string): Promise<Result<ProfilesState, DeskError>>;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Checks a custom server address: https, or http only on this computer. Returns the normalised origin+path. */
export function checkBaseUrl(raw: string): Result<string, DeskError> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return err({ code: 'invalid_argument', message: `"${raw}" is not a web address.` });
  }
  const local = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    return err({
      code: 'invalid_argument',
      message: 'The server address must start with https:// (http:// is allowed only for this computer).',
    });
  }
  if (url.username || url.password || url.search || url.hash) {
    return err({
      code: 'invalid_argument',
      message: 'The server address must not contain a user, query or fragment.',
    });
  }
  return ok(`${url.origin}${url.pathname.replace(/\/+$/, '')}`);
}

function checkPorts(ports: number[] | undefined): Result<number[] | undefined, DeskError> {
  if (ports === undefined) return ok(undefined);
  const valid = ports.every((port) => Number.isInteger(port) && port >= 1 && port <= 65535);
  if (!valid)
    return err({
      code: 'invalid_argument',
      message: 'Loopback ports must be whole numbers from 1 to 65535.',
    });
  return ok([...new Set(ports)]);
}

async function readProfilesFile(filePath: string): Promise<ProfilesFile> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch {
    return { version: 1, activeProfileId: null, profiles: [] };
  }
  try {
    const parsed = ProfilesFile.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: set aside below.
  }
  // A damaged file is set aside under a dated name (never overwritten) and the list starts empty: the
  // person signs in again; the accounts' keys stay in the keychain.
  setAsideSync(filePath);
  return { version: 1, activeProfileId: null, profiles: [] };
}

export async function openProfileStore(options: { filePath: string }): Promise<ProfileStore> {
  const { filePath } = options;
  let data = await readProfilesFile(filePath);
  let queue: Promise<unknown> = Promise.resolve();

  const save = (next: ProfilesFile): Promise<void> => {
    data = next;
    const text = `${JSON.stringify(next, null, 2)}\n`;
    const write = async (): Promise<void> => {
      await mkdir(dirname(filePath), { recursive: true });
      const temp = `${filePath}.${process.pid}.${randomUUID()}.tmp`;
      await writeFile(temp, text, { mode: 0o600 });
      await rename(temp, filePath);
    };
    // Writes run one after another so an older list never lands after a newer one.
    const next$ = queue.then(write, write);
    queue = next$.catch(() => undefined);
    return next$;
  };

  const copy = (profile: StoredProfile): ServiceProfile => structuredClone(profile);
  const find = (id: string): StoredProfile | undefined => data.profiles.find((p) => p.id === id);
  const unknown = (id: string): DeskError => ({
    code: 'unknown_profile',
    message: `There is no account "${id}".`,
  });

  return {
    state: () => ({ profiles: data.profiles.map(copy), activeProfileId: data.activeProfileId }),
    get: (id) => {
      const found = find(id);
      return found ? copy(found) : undefined;
    },
    active: () => {
      const found = data.activeProfileId ? find(data.activeProfileId) : undefined;
      return found ? copy(found) : undefined;
    },
    async addLocal() {
      const existing = find(LOCAL_PROFILE_ID);
      const profile: StoredProfile = existing ?? {
        id: LOCAL_PROFILE_ID,
        kind: 'local',
        name: LOCAL_PROFILE_NAME,
        clientId: DESKTOP_CLIENT_ID,
      };
      const profiles = existing ? data.profiles : [...data.profiles, profile];
      await save({ ...data, profiles, activeProfileId: profile.id });
      return copy(profile);
    },
    async addCustom(input) {
      const baseUrl = checkBaseUrl(input.baseUrl);
      if (!baseUrl.ok) return baseUrl;
      const clientId = input.clientId.trim();
      if (!clientId)
        return err({ code: 'invalid_argument', message: 'A client id is needed for a custom server.' });
      const ports = checkPorts(input.loopbackPorts);
      if (!ports.ok) return ports;
      const same = data.profiles.find(
        (p) => p.kind === 'custom' && p.baseUrl === baseUrl.value && p.clientId === clientId,
      );
      if (same) {
        const updated: StoredProfile = {
          ...same,
          ...(ports.value ? { loopbackPorts: ports.value } : {}),
          ...(input.name?.trim() ? { name: input.name.trim() } : {}),
        };
        const profiles = data.profiles.map((p) => (p.id === same.id ? updated : p));
        await save({ ...data, profiles, activeProfileId: same.id });
        return ok(copy(updated));
      }
      const profile: StoredProfile = {
        id: `custom-${randomUUID()}`,
        kind: 'custom',
        name: input.name?.trim() || new URL(baseUrl.value).host,
        baseUrl: baseUrl.value,
        clientId,
        ...(ports.value ? { loopbackPorts: ports.value } : {}),
      };
      await save({ ...data, profiles: [...data.profiles, profile], activeProfileId: profile.id });
      return ok(copy(profile));
    },
    async setActive(id) {
      const found = find(id);
      if (!found) return err(unknown(id));
      if (data.activeProfileId !== id) await save({ ...data, activeProfileId: id });
      return ok(copy(found));
    },
    async remove(id) {
      if (!find(id)) return err(unknown(id));
      const profiles = data.profiles.filter((p) => p.id !== id);
      const activeProfileId = data.activeProfileId === id ? (profiles[0]?.id ?? null) : data.activeProfileId;
      await save({ ...data, profiles, activeProfileId });
      return ok({ profiles: profiles.map(copy), activeProfileId });
    },
  };
}
