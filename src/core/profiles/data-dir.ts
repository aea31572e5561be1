import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The per-user folder where the Node programs (browser mode, the CLI) keep
 * profiles and the local service's data, following each OS's convention.
 * The Electron app uses `app.getPath('userData')` instead.
 */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (env['AGENTDESK_DATA']) return env['AGENTDESK_DATA'];
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'AgentDesk');
  if (platform === 'win32') return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), 'AgentDesk');
  return join(env['XDG_DATA_HOME'] ?? join(home, '.local', 'share'), 'agentdesk');
}

/**
 * The desktop app's data folder: the one browser mode and the CLI use, so the three share their accounts and
 * "this computer"'s service, which runs once per folder (core/host/plumbing/local-service-lease.ts). It is
 * Electron's own folder on macOS and Windows; on Linux that is `~/.config/AgentDesk` instead, and a person
 * whose accounts are already there keeps them there.
 */
export function desktopDataDir(
  electronUserData: string,
  options: {
    platform?: NodeJS.Platform;
    env?: NodeJS.ProcessEnv;
    home?: string;
    hasAccounts?: (dir: string) => boolean;
  } = {},
): string {
  const env = options.env ?? process.env;
  const shared = defaultDataDir(options.platform ?? process.platform, env, options.home ?? homedir());
  if (env['AGENTDESK_DATA'] || shared === electronUserData) return shared;
  const hasAccounts = options.hasAccounts ?? ((dir: string) => existsSync(join(dir, 'profiles.json')));
  return hasAccounts(electronUserData) && !hasAccounts(shared) ? electronUserData : shared;
}

/**
 * Creates (or tightens) the app's data folder so only this user can enter it: profiles, sync state, the
 * local service's database and workspaces all live below it. Modes do not apply on Windows, where the
 * per-user profile folder already has a per-user ACL.
 */
export async function makePrivateDataDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') await chmod(dir, 0o700);
}

/** For entry points only (the mask is per process): whatever they and their children create is private. */
export function usePrivateUmask(): void {
  if (process.platform !== 'win32') process.umask(0o077);
}
