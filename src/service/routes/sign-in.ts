import type { Context } from 'hono';
import { Hono } from 'hono';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import {
  csrfValid,
  currentSession,
  ensureSession,
  isAuthorizeNext,
  replaceSession,
  safeNext,
} from '../http/browser-session';
import { readForm } from '../http/form-body';
import { errorPage } from '../pages/error-page';
import { PAGE_HEADERS } from '../pages/layout';
import { firstRunPage, signInPage, type FieldErrors } from '../pages/sign-in-page';
import { newAccountProblems, signInProblems } from '../pages/account-form-checks';

/** Sign-in, first-run (create the first account) and sign-out pages. */
export function signInRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { persons, signInThrottle, signInInteractions } = ctx.identity;

  const expired = (c: Context) =>
    c.html(errorPage('This form has expired', 'Go back, reload the page and try again.'), 400, PAGE_HEADERS);
  const seeOther = (c: Context, location: string) =>
    c.body(null, 303, { Location: location, 'Cache-Control': 'no-store' });

  /** Typing the password on the way to an authorize request is the interaction that request needs. */
  const signedInFor = (sessionSecret: string, next: string) => {
    if (isAuthorizeNext(next)) signInInteractions.record(sessionSecret, next);
  };

  app.get('/', (c) => c.redirect('/account', 302));

  // The app's own service: its person is signed in by the app (no password); no first account is made here,
  // so no other user of this computer can make the account the app would then sign in to.
  app.use('/first-run', async (c, next) => {
    if (!ctx.startedByApp) return next();
    const page = errorPage(
      'This service belongs to the AgentDesk app',
      'It signs you in by itself: open AgentDesk on this computer. No account is made here.',
    );
    return c.html(page, 403, PAGE_HEADERS);
  });

  app.get('/signin', async (c) => {
    const next = safeNext(c.req.query('next'));
    if ((await currentSession(ctx, c))?.personId) return seeOther(c, next);
    if ((await persons.count()) === 0) return seeOther(c, `/first-run?next=${encodeURIComponent(next)}`);
    return c.html(signInPage({ csrf: (await ensureSession(ctx, c)).csrf, next }), 200, PAGE_HEADERS);
  });

  app.post('/signin', async (c) => {
    const form = await readForm(c.req.raw);
    if (!form.ok) return c.html(errorPage('Bad form', form.detail), 400, PAGE_HEADERS);
    const { csrf, email = '', password = '' } = form.fields;
    const next = safeNext(form.fields.next);
    const session = await currentSession(ctx, c);
    if (!csrfValid(session, csrf)) return expired(c);
    const address = c.get('client').address;
    const allowed = await signInThrottle.check(email, address);
    if (!allowed.ok) {
      const seconds = Math.ceil(allowed.retryAfterMs / 1000);
      const error = `Too many failed attempts. Wait ${seconds} s, then try again.`;
      const page = signInPage({ csrf: session.csrf, next, email, error });
      return c.html(page, 429, { ...PAGE_HEADERS, 'Retry-After': String(seconds) });
    }
    const missing = signInProblems(email, password);
    if (missing)
      return c.html(signInPage({ csrf: session.csrf, next, email, errors: missing }), 400, PAGE_HEADERS);
    const person = await persons.authenticate(email, password);
    if (!person) {
      await signInThrottle.failed(email, address);
      const page = signInPage({ csrf: session.csrf, next, email, error: 'Wrong e-mail or password.' });
      return c.html(page, 401, PAGE_HEADERS);
    }
    await signInThrottle.succeeded(email);
    signedInFor((await replaceSession(ctx, c, person.id)).secret, next);
    return seeOther(c, next);
  });

  app.get('/first-run', async (c) => {
    const next = safeNext(c.req.query('next'));
    if ((await persons.count()) > 0) return seeOther(c, `/signin?next=${encodeURIComponent(next)}`);
    return c.html(firstRunPage({ csrf: (await ensureSession(ctx, c)).csrf, next }), 200, PAGE_HEADERS);
  });

  app.post('/first-run', async (c) => {
    const form = await readForm(c.req.raw);
    if (!form.ok) return c.html(errorPage('Bad form', form.detail), 400, PAGE_HEADERS);
    const { csrf, email = '', password = '', password2 = '' } = form.fields;
    const next = safeNext(form.fields.next);
    const session = await currentSession(ctx, c);
    if (!csrfValid(session, csrf)) return expired(c);
    // Only the very first account is made here; later ones through `user add`.
    if ((await persons.count()) > 0) return seeOther(c, `/signin?next=${encodeURIComponent(next)}`);
    const again = (errors: FieldErrors) =>
      c.html(firstRunPage({ csrf: session.csrf, next, email, errors }), 400, PAGE_HEADERS);
    const problems = newAccountProblems(email, password, password2);
    if (problems) return again(problems);
    const created = await persons.create(email, password);
    if (!created.ok) {
      return again(
        created.code === 'email_taken'
          ? { email: 'That e-mail already has an account.' }
          : { form: 'Give a valid e-mail and a password of at least 8 characters.' },
      );
    }
    signedInFor((await replaceSession(ctx, c, created.person.id)).secret, next);
    return seeOther(c, next);
  });

  app.post('/signout', async (c) => {
    const form = await readForm(c.req.raw);
    if (!form.ok || !csrfValid(await currentSession(ctx, c), form.fields.csrf)) return expired(c);
    await replaceSession(ctx, c, null);
    return seeOther(c, '/signin');
  });

  return app;
}
