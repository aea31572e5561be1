import type { Locator, Page } from '@playwright/test';
import { openSection } from '../studio-support';
import type { SpecOnlyApp } from './spec-only-app';

/** The agent's configuration as the spec-only server's service holds it, read as a second client. */
export async function heldConfig(app: SpecOnlyApp, full = false) {
  const result = await app.api.getAgentConfig(app.agentId, { full });
  if (!result.ok) throw new Error(`GET agent failed: ${result.error.message}`);
  return result.value;
}

/** Opens the studio of the app's agent at the section titled `title`. */
export async function openStudio(page: Page, app: SpecOnlyApp, title: string): Promise<Locator> {
  await page.goto(app.mode.url);
  await page.getByRole('button', { name: /^Configure agent/ }).click();
  return openSection(page, title);
}
