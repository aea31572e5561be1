import type { Context } from 'hono';
import { Hono } from 'hono';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { csrfValid, currentSession, ensureSession, replaceSession } from '../http/browser-session';
import { readForm } from '../http/form-body';
import { errorPage } from '../pages/error-page';
import { invitePage } from '../pages/invite-page';
import { PAGE_HEADERS } from '../pages/layout';

/**
 * Accounts on a public server: made only by `npm run service -- user add` or through an invitation link
 * (`invite add`). The loopback first-run page, where the first visitor makes the first account, is closed.
 */
export function inviteRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { invites, persons } = ctx.identity;
  const unusable = (c: Context) =>
    c.html(
      errorPage(
        'This invitation cannot be used',
        'It was already used or has expired. Ask the person who runs this server for a new one.',
      ),
      404,
      PAGE_HEADERS,
    );

  app.use('/first-run', async (c, next) => {
    if (!ctx.serving.isPublic) return next();
    const page = errorPage(
      'Accounts are made by invitation',
      'No one can create an account on this server alone. Ask the person who runs it for an invitation link.',
    );
    return c.html(page, 403, PAGE_HEADERS);
  });

  app.get('/invite', async (c) => {
    const code = c.req.query('code') ?? '';
    const invite = await invites.find(code);
    if (!invite) return unusable(c);
    return c.html(
      invitePage({ csrf: (await ensureSession(ctx, c)).csrf, code, email: invite.email }),
      200,
      PAGE_HEADERS,
    );
  });

  app.post('/invite', async (c) => {
    const form = await readForm(c.req.raw);
    if (!form.ok) return c.html(errorPage('Bad form', form.detail), 400, PAGE_HEADERS);
    const { csrf, code = '', password = '', password2 = '' } = form.fields;
    const session = await currentSession(ctx, c);
    if (!csrfValid(session, csrf)) {
      const page = errorPage('This form has expired', 'Go back, reload the page and try again.');
      return c.html(page, 400, PAGE_HEADERS);
    }
    const invite = await invites.find(code);
    if (!invite) return unusable(c);
    const again = (error: string) =>
      c.html(invitePage({ csrf: session.csrf, code, email: invite.email, error }), 400, PAGE_HEADERS);
    if (password !== password2) return again('The two passwords differ.');
    const created = await invites.redeem(code, ({ email }) => persons.create(email, password));
    if (!created) return unusable(c);
    if (!created.ok)
      return again(
        created.code === 'email_taken'
          ? 'That e-mail already has an account here: sign in instead.'
          : 'Choose a password of at least 8 characters.',
      );
    await replaceSession(ctx, c, created.person.id);
    return c.body(null, 303, { Location: '/account', 'Cache-Control': 'no-store' });
  });

  return app;
}
