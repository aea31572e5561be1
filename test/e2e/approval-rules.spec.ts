import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { openApp, showScreen, type AppSession } from './support/app-session';
import { seriousViolations } from './support/axe-themes';
import {
  chatApp,
  conversationStartingWith,
  messageBox,
  messagesOf,
  newConversation,
  replies,
  replyEnded,
} from './support/chat-page';
import { signInToSpecOnly, startSpecOnlyApp } from './support/spec-only-app';

// Issue 39, item 2 in browser mode against the real local service and its demo agent ("write <path>" asks
// permission for an `edit`): "Always allow" makes a rule of the agent, the rule answers the next
// conversation's request through the spec's POST permission (read back through the API: the file was
// written), a removed rule asks again, a reject rule wins, and a spec-only server keeps them on this computer.

const session = chatApp('approval-rules@example.test');
let app: AppSession;
let agentId: string;
test.beforeAll(() => {
  app = session.app();
  agentId = session.agentId();
});

interface WireRule {
  id: string;
  efecto: string;
  herramienta: string;
  carpeta: string | null;
}
const rulesOnServer = async (): Promise<WireRule[]> =>
  ((await (await app.api(`/api/v2/me/agents/${agentId}/approval-rules`)).json()) as { reglas: WireRule[] })
    .reglas;

/** Asks the agent to write `path` in a new conversation; the reply's permission card. */
async function askToWrite(page: Page, path: string): Promise<Locator> {
  await newConversation(page);
  await messageBox(page).fill(`write ${path}\n\`\`\`\nrule test\n\`\`\``);
  await messageBox(page).press('Enter');
  return replies(page)
    .last()
    .getByRole('region', { name: `Permission request: Write ${path}` });
}

/** What the agent said last in the conversation that starts with writing `path`, read through the API. */
async function lastReplyAbout(path: string): Promise<string> {
  const sessionId = await conversationStartingWith(app, agentId, `write ${path}\n\`\`\`\nrule test\n\`\`\``);
  return (await messagesOf(app, agentId, sessionId)).at(-1)!.content;
}

test('Always allow under a folder answers the next conversation; outside it asks; removed, it asks again', async ({
  page,
}) => {
  await openApp(page, app);
  const first = await askToWrite(page, 'kb/one.md');
  await first.getByRole('button', { name: 'Always allow' }).click();
  await first.getByRole('radio', { name: 'Only in kb' }).check();
  expect(await seriousViolations(page, '.permission-card')).toEqual([]);
  await first.getByRole('button', { name: 'Save rule and allow' }).click();
  await expect(first).toContainText('Allowed by your rule');
  await replyEnded(page, 1);
  expect(await rulesOnServer()).toEqual([
    expect.objectContaining({ efecto: 'permitir', herramienta: 'edit', carpeta: 'kb' }),
  ]);

  // The next conversation: the rule answers, nobody clicks; the agent wrote the file.
  const second = await askToWrite(page, 'kb/two.md');
  await expect(second).toContainText('Allowed by your rule');
  await expect(second.getByRole('button', { name: 'Allow once' })).toHaveCount(0);
  await replyEnded(page, 1);
  expect(await lastReplyAbout('kb/two.md')).toMatch(/I wrote \d+ bytes to kb\/two\.md\./);

  // Manage opens the studio's Permissions section: the rule with its scope and date; axe; Remove.
  await page.getByRole('button', { name: 'Manage this agent’s permission rules' }).first().click();
  const section = page.getByRole('region', { name: 'Permissions', exact: true });
  const list = section.getByRole('list', { name: 'Permission rules' });
  await expect(list).toContainText('Always allow · Editing files · in kb');
  await expect(list).toContainText('Made ');
  await expect(list).toContainText(String(new Date().getFullYear()));
  await expect(section).toContainText('Kept by the server');
  expect(await seriousViolations(page, '.studio-section')).toEqual([]);
  await page.getByRole('button', { name: 'Back to chat' }).click();

  // Outside the folder the person is asked.
  const outside = await askToWrite(page, 'notes/three.md');
  await outside.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(outside).toContainText('Rejected');
  await replyEnded(page, 1);

  await page.getByRole('button', { name: /^Configure agent/ }).click();
  await page
    .getByRole('navigation', { name: 'Studio sections' })
    .getByRole('button', { name: 'Permissions' })
    .click();
  await list.getByRole('button', { name: 'Remove the rule Always allow: editing files, in kb' }).click();
  await expect(section).toContainText('No rules yet');
  expect(await rulesOnServer()).toEqual([]);
  await page.getByRole('button', { name: 'Back to chat' }).click();

  const again = await askToWrite(page, 'kb/four.md');
  await expect(again.getByRole('button', { name: 'Allow once' })).toBeVisible();
  await again.getByRole('button', { name: 'Allow once' }).click();
  await replyEnded(page, 1);
});

test('a reject rule wins over an allow rule; Settings lists both with their scope', async ({ page }) => {
  // An allow rule for any path, as another device of the person would make it.
  const made = await app.api(`/api/v2/me/agents/${agentId}/approval-rules`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ efecto: 'permitir', herramienta: 'edit' }),
  });
  expect(made.status).toBe(201);
  await openApp(page, app);
  await page.getByRole('button', { name: /^Configure agent/ }).click();
  await page
    .getByRole('navigation', { name: 'Studio sections' })
    .getByRole('button', { name: 'Permissions' })
    .click();
  const form = page.getByRole('form', { name: 'New rule' });
  // Its heading sits at the box's padding (12 px), with no margin of its own above it.
  const [box, heading] = await Promise.all([
    form.boundingBox(),
    form.getByRole('heading', { name: 'New rule' }).boundingBox(),
  ]);
  expect(heading!.y - box!.y).toBeLessThan(16);
  await form.getByLabel('Answer').selectOption('deny');
  await form.getByLabel('for').selectOption('edit');
  await form.getByLabel('Only in the folder (optional)').fill('private');
  await form.getByRole('button', { name: 'Add rule' }).click();
  await expect(page.getByRole('list', { name: 'Permission rules' })).toContainText(
    'Always reject · Editing files · in private',
  );
  expect((await rulesOnServer()).map((r) => `${r.efecto} ${r.herramienta} ${r.carpeta}`).sort()).toEqual([
    'denegar edit private',
    'permitir edit null',
  ]);
  await page.getByRole('button', { name: 'Back to chat' }).click();

  const denied = await askToWrite(page, 'private/secret.md');
  await expect(denied).toContainText('Rejected by your rule');
  await replyEnded(page, 1);
  expect(await lastReplyAbout('private/secret.md')).toContain('permission was refused');
  const allowed = await askToWrite(page, 'public/open.md');
  await expect(allowed).toContainText('Allowed by your rule');
  await replyEnded(page, 1);

  await showScreen(page, 'Settings');
  const rules = page.getByRole('region', { name: 'Permission rules' });
  await expect(rules).toContainText('Always reject · Editing files · in private');
  await expect(rules).toContainText('Always allow · Editing files · anywhere');
  // Each agent's name sits close above its rules (a bare h5's margins left 19 px between them).
  const name = await rules.getByRole('heading', { level: 5 }).first().boundingBox();
  const kept = await rules.getByText('Kept by the server').first().boundingBox();
  expect(kept!.y - (name!.y + name!.height)).toBeLessThan(8);
  expect(await seriousViolations(page, '.settings-group')).toEqual([]);
});

test('on a server that only follows the spec, rules are kept on this computer and still answer', async ({
  page,
}) => {
  const spec = await startSpecOnlyApp();
  try {
    await signInToSpecOnly(page, spec);
    await newConversation(page);
    const ask = async (path: string) => {
      await messageBox(page).fill(`write ${path}\n\`\`\`\nspec rule\n\`\`\``);
      await messageBox(page).press('Enter');
      return replies(page)
        .last()
        .getByRole('region', { name: `Permission request: Write ${path}` });
    };
    const first = await ask('kb/a.md');
    await first.getByRole('button', { name: 'Always allow' }).click();
    await first.getByRole('button', { name: 'Save rule and allow' }).click();
    await expect(first).toContainText('Allowed by your rule');
    await replyEnded(page, 1);
    const kept = JSON.parse(
      await readFile(join(spec.scratch, 'data', 'approval-rules.json'), 'utf8'),
    ) as Record<string, Record<string, { effect: string; tool: string; folder: string | null }[]>>;
    expect(Object.values(kept).flatMap((agents) => Object.values(agents).flat())).toEqual([
      expect.objectContaining({ effect: 'allow', tool: 'edit', folder: null }),
    ]);

    await newConversation(page);
    const second = await ask('kb/b.md');
    await expect(second).toContainText('Allowed by your rule');
    await replyEnded(page, 1);
    const list = await spec.api.listConversations(spec.agentId);
    if (!list.ok) throw new Error(list.error.message);
    const read = await spec.api.getConversation(spec.agentId, list.value[0]!.id);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.messages.at(-1)!.content).toMatch(/I wrote \d+ bytes to kb\/b\.md\./);
    expect(spec.spec.refused.filter((r) => r.includes('approval-rules'))).toEqual([]);
  } finally {
    await spec.close();
  }
});
