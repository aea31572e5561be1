import { expect, type Locator, type Page } from '@playwright/test';

/** The selected agent's sync panel, as the sync specs find it: by role and name, as a person sees it. */
export const syncPanel = (page: Page): Locator => page.getByRole('region', { name: /^Sync folder · / });

/** The one-line state ("Up to date", "Paused", …) in the panel's status card. */
export const syncState = (panel: Locator): Locator =>
  panel.getByRole('region', { name: 'Sync status' }).getByRole('status');

/** Opens the panel from the sidebar's Sync folder button. */
export async function openSyncPanel(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: /^Sync folder/ }).click();
  const panel = syncPanel(page);
  await expect(panel).toBeVisible();
  return panel;
}
