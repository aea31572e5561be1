import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

/** Debian's headless shell (package chromium-headless-shell): what Playwright itself runs headless. */
export const debianHeadlessShell = '/usr/lib/chromium/chromium-headless-shell';
/** Debian's full Chromium (package chromium). */
export const debianChromium = '/usr/bin/chromium';

function playwrightsOwn(): boolean {
  try {
    return existsSync(chromium.executablePath());
  } catch {
    return false; // Playwright has no browser of its own here.
  }
}

/**
 * Which Chromium the end-to-end tests drive: $AGENTDESK_CHROMIUM when set, else Playwright's own
 * build when installed (it runs its own headless shell), else Debian's headless shell, else Debian's
 * full Chromium. The shell draws the same pages for about a quarter less CPU, and the e2e stage is
 * CPU-bound by the browser.
 */
export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env['AGENTDESK_CHROMIUM'];
  if (fromEnv) return fromEnv;
  if (playwrightsOwn()) return undefined;
  return existsSync(debianHeadlessShell) ? debianHeadlessShell : debianChromium;
}

/**
 * The full Chromium, for the few tests that need what the headless shell lacks: it answers every
 * notification permission "denied" (even one the test granted), and its fake capture device plays
 * no file as the microphone.
 */
export function fullChromiumExecutable(): string | undefined {
  const fromEnv = process.env['AGENTDESK_CHROMIUM'];
  if (fromEnv) return fromEnv;
  if (playwrightsOwn()) return chromium.executablePath();
  return debianChromium;
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

/** `test.use(withFullChromium)` in a spec file that needs the full Chromium for all its tests. */
export const withFullChromium = {
  launchOptions: { executablePath: fullChromiumExecutable(), args: chromiumArgs },
};
