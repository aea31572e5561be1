import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The app's version from its package.json, found from this file in development and in a bundle alike. */
export function appVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === 'agentdesk' && pkg.version) return pkg.version;
      } catch {
        // Not ours or unreadable: keep looking up.
      }
    }
    dir = dirname(dir);
  }
  return 'unknown';
}
