import { html } from 'hono/html';
import { layout, type Html } from './layout';

/** For authorize errors that must never redirect (unknown client, bad redirect_uri) and broken forms. */
export function errorPage(title: string, sentence: string): Html {
  return layout(
    title,
    html`<h1>${title}</h1>
      <p role="alert">${sentence}</p>`,
  );
}
