import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

/**
 * Which Chromium the end-to-end tests drive: $AGENTDESK_CHROMIUM when set,
 * else Playwright's own build when installed, else Debian's /usr/bin/chromium.
 */
export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env['AGENTDESK_CHROMIUM'];
  if (fromEnv) return fromEnv;
  try {
    if (existsSync(chromium.executablePath())) return undefined;
  } catch {
    // Playwright has no browser of its own here.
  }
  return '/usr/bin/chromium';
}

/** Flags that keep Chromium quiet on a machine with no outside network. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
