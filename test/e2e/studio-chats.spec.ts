import { expect, test } from '@playwright/test';
import { signInAndOpen, studioRig } from './studio-support';

const rig = studioRig();

test('Chats in the sidebar footer brings the chat forward over an open studio', async ({ page }) => {
  const studio = await signInAndOpen(page, rig);
  const chats = page.getByRole('navigation', { name: 'App' }).getByRole('button', { name: 'Chats' });
  await chats.click();
  await expect(studio).toBeHidden();
  await expect(page.getByRole('button', { name: /^Configure agent/ })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expect(chats).toHaveAttribute('aria-current', 'page');
});
