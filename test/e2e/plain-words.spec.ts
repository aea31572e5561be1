import { expect, test } from '@playwright/test';
import { startWalkRig, walkNewUser, type WalkRig } from './support/new-user-walk';

// Issue 29, item 4: no Spanish and no internal jargon in any visible text of the app or the service's
// pages; the wire's words stay on the wire. At every stop of a new person's walk (the first run, a chat
// with every kind of event, schedules, each studio section, the library, search, settings, the public
// share page) this reads what a person can see or hear: the page's text, and the labels, titles and
// placeholders a screen reader or a tooltip gives. None of the wire's field names, engine ids, tool ids
// or the service's Spanish may be among them. Browser mode on the real local service and its demo agent.

// Words of the wire or of our internals, each as a person would never need to read it.
const notForPeople: RegExp[] = [
  // The spec's Spanish field names and values.
  /\b(estado|enCola|ultimoTurno|conversaciones|titulo|nombre|descripcion|canales|conectado|disponible)\b/,
  /\b(aplicado|ignorado|cambiados|reiniciado|archivos|hasta|inicios|detalle)\b/,
  /\b(Mi agente|Conversación|solo lectura|Agente)\b/,
  // Engine, tool and channel ids instead of their names.
  /\bengine-[a-z]\b/,
  /\bhouse-lite\b|\bhouse persona\b/,
  /\bMsgapp\d?\b|\bmsgapp\d?\b/,
  /\baccount_files\b|\bsend_file\b|\bconnected_services\b/,
  // The address our service gives this computer's own account, instead of its user's name.
  /@this-computer\b/,
  // A validation pattern shown instead of a sentence.
  /\^\[a-z/,
];

let rig: WalkRig;

test.beforeAll(async () => {
  rig = await startWalkRig();
});

test.afterAll(async () => {
  await rig?.close();
});

test('no wire word or internal id in any visible text of the walk', async ({ page }) => {
  test.setTimeout(240_000);
  const found: string[] = [];
  const visited: string[] = [];
  await walkNewUser(page, rig, async (name) => {
    visited.push(name);
    // A string, as this project's e2e code has no DOM types: the text, then every label, title and placeholder.
    const texts = await page.evaluate<string[]>(`(() => {
      const out = [document.title, document.body.innerText];
      for (const element of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))
        for (const attribute of ['aria-label', 'title', 'placeholder', 'alt']) {
          const value = element.getAttribute(attribute);
          if (value) out.push(value);
        }
      return out;
    })()`);
    for (const text of texts) {
      for (const word of notForPeople) {
        const match = word.exec(text);
        if (match)
          found.push(
            `${name}: "${match[0]}" in "${text.slice(Math.max(0, match.index - 40), match.index + 40)}"`,
          );
      }
    }
  });
  expect(visited).toContain('share-page');
  expect(found).toEqual([]);
});
