import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { openApp, screens, showScreen, startApp, type AppSession } from './support/app-session';
import { seriousViolations } from './support/axe-themes';

// The library's Open (issue 39, item 8) in browser mode against the real local service: a dialog that
// shows an image fitted, text in monospace, Markdown formatted, a PDF's page drawn by PDF.js under the
// app's CSP, plain words for a file with no preview and for one over the 20 MB preview cap, with a
// Download that saves the bytes. Files are put in the library through the API (the upload screen has its
// own spec); the service's library cap is raised so a file over the preview cap can exist.

const previewCap = 20 * 1024 * 1024;
/** What the test reads of a page's canvas (the e2e specs are typed without the DOM library). */
interface Canvas {
  width: number;
  height: number;
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  };
}
const hostileName = '<img src=x onerror="window.pwned=1">.txt';
let app: AppSession;

/** A real PNG, width × height, every pixel one colour. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([30, 120, 200]))]);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF written by hand: a blue bar and "Hello PDF" in Helvetica, with a correct xref table. */
function pdf(): Buffer {
  const content = '0 0 1 rg 20 20 200 24 re f BT /F1 24 Tf 20 90 Td (Hello PDF) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

const files: { name: string; type: string; bytes: Buffer }[] = [
  { name: 'photo.png', type: 'image/png', bytes: png(40, 30) },
  { name: 'wide.png', type: 'image/png', bytes: png(3000, 2000) },
  { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('line one\n<b>not bold</b>\n') },
  { name: 'readme.md', type: 'text/markdown', bytes: Buffer.from('# Big title\n\nSome *words*.\n') },
  { name: 'tiny.pdf', type: 'application/pdf', bytes: pdf() },
  { name: 'blob.bin', type: 'application/octet-stream', bytes: Buffer.from([0, 1, 2, 250, 251, 252]) },
  { name: 'huge.txt', type: 'text/plain', bytes: Buffer.alloc(previewCap + 1, 'a') },
  { name: hostileName, type: 'text/plain', bytes: Buffer.from('harmless') },
];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  app = await startApp(browser, {
    email: 'preview@example.test',
    serviceConfig: { library: { maxBytes: previewCap + 1024 * 1024 } },
  });
  for (const file of files) {
    const sent = await app.api(`/api/v2/me/files?nombre=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      headers: { 'Content-Type': file.type },
      body: new Uint8Array(file.bytes),
    });
    expect(sent.status, file.name).toBe(200);
  }
});

test.afterAll(async () => {
  await app?.close();
});

async function open(page: Page, name: string) {
  await openApp(page, app);
  await showScreen(page, 'File library');
  const button = page.getByRole('table', { name: 'Files' }).getByRole('button', { name: `Open ${name}` });
  await button.click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  return { dialog, button };
}

test('an image shows at its natural size, a large one fitted; Escape leaves and focus goes back to Open', async ({
  page,
}) => {
  const { dialog, button } = await open(page, 'photo.png');
  await expect(dialog).toContainText('PNG image');
  const image = dialog.getByRole('img', { name: 'photo.png' });
  await expect(image).toHaveJSProperty('naturalWidth', 40);
  await expect(image).toHaveJSProperty('naturalHeight', 30);
  expect(await image.getAttribute('src')).toMatch(/^blob:/);
  await page.screenshot({ path: join(screens, 'library-preview-image.png') });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeFocused();

  // A picture larger than the window is scaled down to fit it, whole.
  const wide = await open(page, 'wide.png');
  const big = wide.dialog.getByRole('img', { name: 'wide.png' });
  await expect(big).toHaveJSProperty('naturalWidth', 3000);
  const [frame, shown] = [await wide.dialog.boundingBox(), await big.boundingBox()];
  expect(shown!.width).toBeLessThan(frame!.width);
  expect(shown!.y + shown!.height).toBeLessThanOrEqual(frame!.y + frame!.height);
  expect(shown!.width / shown!.height).toBeCloseTo(1.5, 1);
});

test('text shows as text in monospace, and Download saves the same bytes', async ({ page }) => {
  const { dialog, button } = await open(page, 'notes.txt');
  const text = dialog.getByRole('region', { name: 'Contents of notes.txt' });
  await expect(text).toHaveText('line one\n<b>not bold</b>\n');
  await expect(text.locator('b')).toHaveCount(0);
  await page.screenshot({ path: join(screens, 'library-preview-text.png') });
  await expect(text).toHaveCSS('font-family', /mono/i);
  const saved = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download' }).click();
  const download = await saved;
  expect(download.suggestedFilename()).toBe('notes.txt');
  expect(await readFile(await download.path())).toEqual(files.find((f) => f.name === 'notes.txt')!.bytes);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeFocused();
});

test('Markdown shows formatted by the app’s own renderer', async ({ page }) => {
  const { dialog } = await open(page, 'readme.md');
  const region = dialog.getByRole('region', { name: 'Contents of readme.md' });
  await expect(region.getByRole('heading', { name: 'Big title' })).toBeVisible();
  await expect(region.locator('em')).toHaveText('words');
});

test('a PDF’s page is drawn in the app, with its text for screen readers; axe is clean in both themes', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const { dialog } = await open(page, 'tiny.pdf');
  const pageImage = dialog.getByRole('img', { name: 'Page 1 of 1' });
  await expect(pageImage).toBeVisible();
  await expect(dialog.getByText('Hello PDF')).toHaveCount(1);
  // The blue bar is drawn: pixels that are blue, not the blank page's white.
  await expect
    .poll(() =>
      pageImage.evaluate((element) => {
        const canvas = element as unknown as Canvas;
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let blue = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i + 2]! > 200 && data[i]! < 60) blue++;
        return blue;
      }),
    )
    .toBeGreaterThan(100);
  await page.screenshot({ path: join(screens, 'library-preview-pdf.png') });
  expect(await seriousViolations(page, 'dialog')).toEqual([]);
  // Nothing refused by the CSP (a worker, an eval) on the way.
  expect(errors.filter((text) => /Content Security Policy|Refused/i.test(text))).toEqual([]);
});

test('a file with no preview says so in words, and Download still saves it', async ({ page }) => {
  const { dialog } = await open(page, 'blob.bin');
  await expect(dialog).toContainText('There is no preview for this kind of file.');
  const saved = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download' }).click();
  expect(await readFile(await (await saved).path())).toEqual(files.find((f) => f.name === 'blob.bin')!.bytes);
});

test('a file over the preview cap is not read; Download hands the link to the browser', async ({ page }) => {
  const { dialog } = await open(page, 'huge.txt');
  await expect(dialog).toContainText('This file is over 20 MB, too large to preview here.');
  await expect(dialog.getByRole('region')).toHaveCount(0);
  const popup = page.waitForEvent('popup');
  await dialog.getByRole('button', { name: 'Download' }).click();
  expect(new URL((await popup).url()).pathname).toMatch(/^\/files\//);
});

test('a hostile file name is shown as text, never as markup', async ({ page }) => {
  const { dialog } = await open(page, hostileName);
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(hostileName);
  await expect(dialog.getByRole('region', { name: `Contents of ${hostileName}` })).toHaveText('harmless');
  await expect(dialog.locator('img')).toHaveCount(0);
  expect(await page.evaluate<unknown>('window.pwned')).toBeUndefined();
});
