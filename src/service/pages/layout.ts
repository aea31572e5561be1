import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Headers of every HTML page: no framing (consent clickjacking), no scripts, no referrer, no caching. */
export const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** The shell of every page. Every interpolation in `hono/html` templates is escaped. */
export function layout(title: string, body: Html): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · AgentDesk local service</title>
        <style>
          body {
            font:
              15px/1.5 system-ui,
              sans-serif;
            max-width: 34rem;
            margin: 3rem auto;
            padding: 0 1rem;
            color: #1d1d1f;
          }
          h1 {
            font-size: 1.4rem;
          }
          label {
            display: block;
            margin: 0.8rem 0 0.2rem;
          }
          input[type='email'],
          input[type='password'] {
            width: 100%;
            padding: 0.45rem;
            box-sizing: border-box;
          }
          button {
            margin-top: 1rem;
            padding: 0.45rem 1rem;
          }
          .error {
            color: #b00020;
          }
          .token {
            font-family: monospace;
            word-break: break-all;
            background: #f3f3f3;
            padding: 0.6rem;
          }
          .agent {
            border-top: 1px solid #ddd;
            padding: 0.6rem 0;
          }
          ul.scopes li {
            margin: 0.3rem 0;
          }
          form.inline {
            display: inline;
          }
        </style>
      </head>
      <body>
        ${body}
      </body>
    </html>`;
}
