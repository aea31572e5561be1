import { expect, test, type Page } from '@playwright/test';
import { conversationAction } from './support/new-user-walk';
import { controlPageTime, runOutUndo } from './support/page-clock';
import { signInToSpecOnly, startSpecOnlyApp, type SpecOnlyApp } from './support/spec-only-app';

// Archive and its Undo against a server that offers exactly the spec (test/support/spec-only-server.ts in
// front of the real local service): Undo works because the app holds the spec's DELETE, no Archived view is
// offered (that is our extension), and the app asks the server for nothing outside the spec. Tokens in a
// memory secret store (no OS keychain on a test machine).

let app: SpecOnlyApp;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  app = await startSpecOnlyApp();
});

test.afterAll(async () => {
  await app.close();
});

test.afterEach(() => {
  expect(app.spec.refused).toEqual([]);
});

const listedIds = async () => {
  const answer = await app.api.listConversations(app.agentId);
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value.map((c) => c.id);
};

const rows = (page: Page) => page.getByRole('list', { name: 'Conversation list' }).getByRole('listitem');

async function titled(title: string): Promise<string> {
  const made = await app.api.createConversation(app.agentId);
  if (!made.ok) throw new Error(made.error.message);
  await app.api.renameConversation(app.agentId, made.value.id, title);
  return made.value.id;
}

test('archive with Undo on a spec-only server: held, undone, then archived for real; no Archived view', async ({
  page,
}) => {
  const kept = await titled('Spec keep');
  const gone = await titled('Spec gone');
  await controlPageTime(page);
  await signInToSpecOnly(page, app);

  for (const title of ['Spec keep', 'Spec gone']) {
    await rows(page).filter({ hasText: title }).getByRole('button').first().click();
    // No question first: Undo follows.
    await conversationAction(page, /^Archive/);
    await expect(rows(page).filter({ hasText: title })).toHaveCount(0);
    if (title === 'Spec keep') {
      expect(await listedIds()).toContain(kept);
      await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
      await expect(rows(page).filter({ hasText: title })).toHaveCount(1);
    }
  }
  await runOutUndo(page);
  await expect.poll(listedIds).not.toContain(gone);
  expect(await listedIds()).toContain(kept);
  await expect(page.getByRole('button', { name: 'Show archived' })).toHaveCount(0);
});
