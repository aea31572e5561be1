import type { Page } from '@playwright/test';

/** Picks an action from the chat header's "…" menu, as a person does with the mouse. */
export async function chooseInHeaderMenu(page: Page, item: string | RegExp): Promise<void> {
  await page
    .getByRole('region', { name: 'Chat' })
    .getByRole('button', { name: 'More conversation actions' })
    .click();
  await page
    .getByRole('menu', { name: 'More conversation actions' })
    .getByRole('menuitem', { name: item })
    .click();
}
