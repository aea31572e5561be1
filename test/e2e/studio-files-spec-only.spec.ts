import { expect, test } from '@playwright/test';
import { openSection, shoot } from './studio-support';
import { signInToSpecOnly, startSpecOnlyApp, type SpecOnlyApp } from './support/spec-only-app';

// The studio's workspace files against a server with exactly the spec (no byte route): the listing
// works, and opening a file says the server only lists files. Browser mode as elsewhere; the spec-only
// server sits in front of the real local service (test/support/spec-only-server.ts).

let app: SpecOnlyApp;

test.beforeAll(async () => {
  app = await startSpecOnlyApp();
});
test.afterAll(async () => {
  await app.close();
});

test('workspace files on a spec-only server: listed with sizes, and opening one says the server only lists', async ({
  page,
}) => {
  expect(
    (await app.api.writeWorkspaceFile(app.agentId, 'menu.md', new TextEncoder().encode('# Menu\n'))).ok,
  ).toBe(true);

  await signInToSpecOnly(page, app);
  await page.getByRole('button', { name: /^Configure agent/ }).click();
  const section = await openSection(page, 'Workspace files');
  const tree = section.getByRole('tree', { name: 'Workspace files' });
  await expect(tree.getByRole('treeitem', { name: 'menu.md, 7 B' })).toBeVisible();
  await tree.getByRole('button', { name: 'View menu.md' }).click();
  await expect(
    section.getByRole('status').filter({ hasText: 'This server only lists workspace files' }),
  ).toBeVisible();
  await shoot(page, 'files-list-only');
  expect(app.spec.refused).toEqual([]);
});
