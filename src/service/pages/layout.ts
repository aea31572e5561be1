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

/**
 * The shell of every page: one card in the app's colours (light and dark), no scripts. Every interpolation
 * in `hono/html` templates is escaped. `wide` for the account page's lists.
 */
export function layout(title: string, body: Html, wide = false): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · AgentDesk</title>
        <style>
          :root {
            color-scheme: light dark;
            --bg: #ffffff;
            --card: #f4f4f6;
            --fg: #1d1d1f;
            --muted: #6e6e73;
            --accent: #2f62e0;
            --on-accent: #ffffff;
            --border: #e2e2e6;
            --danger: #c62828;
            --code: #ececf0;
          }
          @media (prefers-color-scheme: dark) {
            :root {
              --bg: #1c1c1e;
              --card: #242426;
              --fg: #f2f2f7;
              --muted: #98989f;
              --accent: #6d95ff;
              --on-accent: #0b1530;
              --border: #3a3a3c;
              --danger: #ff6b6b;
              --code: #151517;
            }
          }
          * {
            box-sizing: border-box;
          }
          body {
            font:
              14px/1.5 system-ui,
              -apple-system,
              'Segoe UI',
              sans-serif;
            margin: 0;
            min-height: 100vh;
            display: grid;
            place-items: center;
            padding: 24px;
            background: var(--bg);
            color: var(--fg);
          }
          main {
            width: min(440px, 100%);
            background: var(--card);
            border: 1px solid var(--border);
            border-radius: 12px;
            padding: 24px;
          }
          main.wide {
            width: min(640px, 100%);
          }
          .brand {
            font-weight: 600;
            color: var(--muted);
            margin: 0 0 12px;
            font-size: 13px;
          }
          h1 {
            font-size: 20px;
            margin: 0 0 8px;
          }
          h2 {
            font-size: 16px;
          }
          p {
            margin: 8px 0;
          }
          a {
            color: var(--accent);
          }
          label {
            display: block;
            margin: 14px 0 4px;
            font-size: 13px;
            font-weight: 600;
          }
          input[type='email'],
          input[type='password'] {
            width: 100%;
            font: inherit;
            color: inherit;
            background: var(--bg);
            border: 1px solid var(--border);
            border-radius: 6px;
            padding: 8px 10px;
          }
          input[aria-invalid='true'] {
            border-color: var(--danger);
          }
          :focus-visible {
            outline: 2px solid var(--accent);
            outline-offset: 1px;
          }
          button {
            font: inherit;
            color: inherit;
            margin-top: 16px;
            padding: 7px 14px;
            border: 1px solid var(--border);
            background: var(--bg);
            border-radius: 6px;
            cursor: pointer;
          }
          button:hover {
            border-color: var(--accent);
          }
          button.primary,
          button[value='allow'] {
            background: var(--accent);
            border-color: var(--accent);
            color: var(--on-accent);
          }
          .error,
          .field-error {
            color: var(--danger);
          }
          .error {
            border: 1px solid var(--danger);
            border-radius: 6px;
            padding: 8px 10px;
          }
          .field-error {
            margin: 4px 0 0;
            font-size: 13px;
          }
          .hint {
            color: var(--muted);
            font-size: 13px;
            margin: 4px 0 0;
          }
          .token {
            font-family: ui-monospace, monospace;
            word-break: break-all;
            background: var(--code);
            border-radius: 6px;
            padding: 0.6rem;
          }
          code {
            background: var(--code);
            border-radius: 4px;
            padding: 0 4px;
          }
          .agent {
            border-top: 1px solid var(--border);
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
        <main class="${wide ? 'wide' : ''}">
          <p class="brand">AgentDesk</p>
          ${body}
        </main>
      </body>
    </html>`;
}
