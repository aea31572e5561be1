import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openApp, screens, showScreen, startApp, type AppSession } from './support/app-session';
import { heldAnswers } from './support/held-answers';

// The file library in browser mode against the real local service: uploads by picker, drop and paste
// (several at once, with progress), search and sort, links, delete with confirmation, the 10 MB cap,
// and attaching a library file to a message. The server's state is read back through the API.

let app: AppSession;

interface Listed {
  archivos: { id: string; nombre: string; size: number; mimeType: string }[];
}
const listed = async (): Promise<Listed['archivos']> =>
  ((await (await app.api('/api/v2/me/files')).json()) as Listed).archivos;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, { email: 'library@example.test' });
});

test.afterAll(async () => {
  await app?.close();
});

const files = (page: Page) => page.getByRole('table', { name: 'Files' });
const row = (page: Page, name: string) => files(page).getByRole('row').filter({ hasText: name });

async function openLibrary(page: Page): Promise<void> {
  await openApp(page, app);
  await showScreen(page, 'File library');
  await expect(page.getByRole('heading', { name: 'File library' })).toBeVisible();
}

test('several files upload at once through the picker and are listed by the API', async ({ page }) => {
  await openLibrary(page);
  await expect(page.getByText('Your library is empty.')).toBeVisible();
  await page.getByLabel('Choose files to upload').setInputFiles([
    { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# notes\n') },
    { name: 'big-report.txt', mimeType: 'text/plain', buffer: Buffer.alloc(300_000, 'r') },
    { name: 'pixel.png', mimeType: 'image/png', buffer: Buffer.from('89504e470d0a1a0a', 'hex') },
  ]);
  const uploads = page.getByRole('list', { name: 'Uploads' });
  for (const name of ['notes.md', 'big-report.txt', 'pixel.png']) {
    await expect(uploads.getByRole('listitem', { name: `Upload of ${name}` })).toContainText('Uploaded');
    await expect(row(page, name)).toBeVisible();
  }
  await page.screenshot({ path: join(screens, 'library.png') });
  // The type in words a person knows; the MIME type is the wire's word, only in the tooltip.
  for (const [fileName, kind, mime] of [
    ['notes.md', 'Markdown text', 'text/markdown'],
    ['big-report.txt', 'Plain text', 'text/plain'],
    ['pixel.png', 'PNG image', 'image/png'],
  ] as const) {
    const typeCell = row(page, fileName).locator('.file-type');
    await expect(typeCell).toHaveText(kind);
    await expect(typeCell).toHaveAttribute('title', mime);
  }
  await expect(files(page)).not.toContainText('text/');
  const names = (await listed()).map((f) => f.nombre).sort();
  expect(names).toEqual(['big-report.txt', 'notes.md', 'pixel.png']);
  expect((await listed()).find((f) => f.nombre === 'big-report.txt')?.size).toBe(300_000);

  // At 900 px the name takes the room, not the actions: "big-report.txt" shows whole.
  await page.setViewportSize({ width: 900, height: 800 });
  const name = row(page, 'big-report.txt').locator('.file-name-text');
  await expect
    .poll(() => name.evaluate((el) => el.scrollWidth <= el.clientWidth && el.clientWidth > 0))
    .toBe(true);
});

test('search and sort', async ({ page }) => {
  await openLibrary(page);
  await page.getByLabel('Search files').fill('png');
  await expect(files(page).getByRole('row')).toHaveCount(2);
  await expect(row(page, 'pixel.png')).toBeVisible();
  await page.getByLabel('Search files').fill('nothing like it');
  await expect(page.getByText('No file matches')).toBeVisible();
  await page.getByLabel('Search files').fill('');
  await page.getByLabel('Sort files').selectOption('size');
  const firstCells = files(page).getByRole('row').locator('[role="cell"]:first-child');
  await expect(firstCells.first()).toContainText('big-report.txt');
  await page.getByLabel('Sort files').selectOption('name');
  await expect(firstCells.first()).toContainText('big-report.txt');
  await expect(firstCells.last()).toContainText('pixel.png');
});

test('a drop anywhere on the screen and a paste upload too', async ({ page }) => {
  await openLibrary(page);
  // In-page code as text: the spec is type-checked for Node, and these are the page's own DOM events.
  await page.evaluate(`(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['dropped bytes'], 'dropped.txt', { type: 'text/plain' }));
    window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  })()`);
  await expect(row(page, 'dropped.txt')).toBeVisible();
  await page.evaluate(`(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['pasted bytes'], 'pasted.txt', { type: 'text/plain' }));
    document.querySelector('input[aria-label="Search files"]').dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  })()`);
  await expect(row(page, 'pasted.txt')).toBeVisible();
  const names = (await listed()).map((f) => f.nombre);
  expect(names).toEqual(expect.arrayContaining(['dropped.txt', 'pasted.txt']));
});

test('a file uploaded while a slow host still lists the library stays listed', async ({ page }) => {
  // The listing is asked as the screen opens; its answer, read before the upload, comes after the upload's.
  const server = await heldAnswers(page, 'listFiles');
  server.hold();
  await openLibrary(page);
  await page
    .getByLabel('Choose files to upload')
    .setInputFiles([{ name: 'while-listing.txt', mimeType: 'text/plain', buffer: Buffer.from('late list') }]);
  await expect(page.getByRole('listitem', { name: 'Upload of while-listing.txt' })).toContainText('Uploaded');
  await expect(row(page, 'while-listing.txt')).toBeVisible();
  server.release();
  // The listing is in once the files uploaded before show; the new one is still there beside them.
  await expect(row(page, 'notes.md')).toBeVisible();
  await expect(row(page, 'while-listing.txt')).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Upload of while-listing.txt' })).toBeVisible();
});

test('a file over 10 MB is refused with a clear message and never sent', async ({ page }) => {
  await openLibrary(page);
  const before = (await listed()).length;
  await page
    .getByLabel('Choose files to upload')
    .setInputFiles([
      { name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) },
    ]);
  await expect(page.getByRole('listitem', { name: 'Upload of huge.bin' })).toContainText(
    "huge.bin is over the library's 10 MB limit.",
  );
  expect((await listed()).length).toBe(before);
});

test('a name the server refuses (400) is said with its reason', async ({ page }) => {
  await openLibrary(page);
  const long = `${'n'.repeat(300)}.txt`;
  await page
    .getByLabel('Choose files to upload')
    .setInputFiles([{ name: long, mimeType: 'text/plain', buffer: Buffer.from('x') }]);
  await expect(page.getByRole('listitem', { name: `Upload of ${long}` })).toContainText(
    'was refused: Nombre must be a file name of 1 to 255 characters',
  );
  expect((await listed()).map((f) => f.nombre)).not.toContain(long);
});

test('copy link gives a working signed URL, and open previews the file', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openLibrary(page);
  await row(page, 'notes.md').getByRole('button', { name: 'Copy link to notes.md' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Link to notes.md copied' })).toBeVisible();
  const url = await page.evaluate<string>('navigator.clipboard.readText()');
  // The link a person pastes reads in plain words: /files/, never the wire's /archivos/.
  expect(new URL(url).pathname).toMatch(/^\/files\/[^/]+$/);
  const served = await fetch(url);
  expect(served.status).toBe(200);
  expect(await served.text()).toBe('# notes\n');
  // Open previews in the app (library-preview.spec.ts has every kind).
  await row(page, 'notes.md').getByRole('button', { name: 'Open notes.md' }).click();
  const preview = page.getByRole('dialog', { name: 'notes.md' });
  await expect(preview.getByRole('heading', { name: 'notes', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(preview).toHaveCount(0);
});

test('delete asks first, then the API no longer lists the file', async ({ page }) => {
  await openLibrary(page);
  await row(page, 'pasted.txt').getByRole('button', { name: 'Delete pasted.txt' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this file?' });
  await expect(dialog).toContainText('pasted.txt');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect((await listed()).map((f) => f.nombre)).toContain('pasted.txt');
  await row(page, 'pasted.txt').getByRole('button', { name: 'Delete pasted.txt' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, 'pasted.txt')).toHaveCount(0);
  expect((await listed()).map((f) => f.nombre)).not.toContain('pasted.txt');
});

test('a library file attaches to a message, from the library and from the composer', async ({ page }) => {
  await openApp(page, app);
  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await showScreen(page, 'File library');
  await row(page, 'notes.md').getByRole('button', { name: 'Attach notes.md to message' }).click();
  const attachments = page.getByRole('list', { name: 'Attachments to send' });
  await expect(attachments).toContainText('notes.md');

  await page.getByRole('button', { name: 'Attach from library' }).click();
  const picker = page.getByRole('dialog', { name: 'Attach from your library' });
  await picker.getByRole('checkbox', { name: /dropped\.txt/ }).check();
  await picker.getByRole('button', { name: 'Attach (1)' }).click();
  await expect(attachments).toContainText('dropped.txt');

  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('echo from the library');
  await box.press('Enter');
  const reply = page.getByRole('article', { name: 'Agent reply' }).last();
  await expect(reply).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await expect(reply).toContainText('notes.md');
  await expect(reply).toContainText('dropped.txt');
});

test('a long library stays light: only the rows near the view are in the page', async ({ page }) => {
  for (let i = 0; i < 300; i += 1) {
    const name = `bulk-${String(i).padStart(3, '0')}.txt`;
    const response = await app.api(`/api/v2/me/files?nombre=${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: name,
    });
    expect(response.status).toBe(200);
  }
  await openLibrary(page);
  await page.getByLabel('Search files').fill('bulk-');
  await page.getByLabel('Sort files').selectOption('name');
  await expect(files(page)).toHaveAttribute('aria-rowcount', '301');
  const rendered = await files(page).getByRole('row').count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(80);
  await expect(row(page, 'bulk-000.txt')).toBeVisible();
  await page.evaluate("document.querySelector('.library-body').scrollTop = 1e9");
  await expect(row(page, 'bulk-299.txt')).toBeVisible();
  await expect(row(page, 'bulk-000.txt')).toHaveCount(0);
});
