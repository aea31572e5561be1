import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startBrowserMode, type BrowserMode } from '../../src/browser/browser-mode';
import { createMemorySecretStore } from '../../src/core/auth/memory-secret-store';
import { chromiumArgs, chromiumExecutable } from '../e2e/chromium';

const repo = resolve(import.meta.dirname, '../..');
const rendererDir = join(repo, 'out/renderer');

export interface BrowserBench {
  mode: BrowserMode;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/**
 * The app as a bench drives it: browser mode (the built renderer, the real bridge, host and embedded
 * service) on a fresh data folder, in Debian's Chromium at 1200×900, with `initScript` run before the page's
 * own scripts; "Start on this computer" is pressed, what the first screen then shows is the caller's to wait for.
 */
export async function openBrowserBench(name: string, initScript?: { content: string } | { path: string }) {
  if (!existsSync(join(rendererDir, 'index.html')))
    throw new Error('Run `npm run build` first: the bench loads out/renderer.');
  const scratch = await mkdtemp(join(tmpdir(), `agentdesk-bench-${name}-`));
  const mode = await startBrowserMode({
    dataDir: join(scratch, 'data'),
    rendererDir,
    secrets: createMemorySecretStore(),
  });
  const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: chromiumArgs });
  const close = async () => {
    await browser.close();
    await mode.close();
    await rm(scratch, { recursive: true, force: true, maxRetries: 5 });
  };
  try {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    if (initScript) await context.addInitScript(initScript);
    const page = await context.newPage();
    await page.goto(mode.url);
    await page.getByRole('button', { name: 'Start on this computer' }).click();
    return { mode, browser, page, close } satisfies BrowserBench;
  } catch (error) {
    await close();
    throw error;
  }
}
