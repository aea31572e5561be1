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
