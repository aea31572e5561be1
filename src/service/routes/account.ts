import type { Context } from 'hono';
import { Hono } from 'hono';
import type { ServiceContext } from '../context';
import type { AppEnv } from '../http/app-env';
import { csrfValid, currentSession } from '../http/browser-session';
import { readForm } from '../http/form-body';
import type { Person } from '../identity/persons';
import { firstAgentName } from '../identity/agents';
import { firstEngineFor } from '../providers/first-engine';
import { accountPage, newTokenPage } from '../pages/account-page';
import { errorPage } from '../pages/error-page';
import { PAGE_HEADERS } from '../pages/layout';

/** The small account page: the person's agents, and creating/revoking their `gat_` agent tokens. */
export function accountRoutes(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { identity } = ctx;

  async function signedIn(c: Context): Promise<{ person: Person; csrf: string } | null> {
    const session = await currentSession(ctx, c);
    const person = session?.personId ? await identity.persons.findById(session.personId) : null;
    return session && person ? { person, csrf: session.csrf } : null;
  }

  /** Form POSTs: a signed-in session and its CSRF token, or an error page. */
  async function checkedPost(c: Context): Promise<{ person: Person } | Response> {
    const form = await readForm(c.req.raw);
    const session = await currentSession(ctx, c);
    if (!form.ok || !csrfValid(session, form.fields.csrf)) {
      return c.html(
        errorPage('This form has expired', 'Reload your account page and try again.'),
        400,
        PAGE_HEADERS,
      );
    }
    const person = session.personId ? await identity.persons.findById(session.personId) : null;
    if (!person) return c.body(null, 303, { Location: '/signin?next=%2Faccount' });
    return { person };
  }

  app.get('/account', async (c) => {
    const who = await signedIn(c);
    if (!who) return c.body(null, 302, { Location: '/signin?next=%2Faccount', 'Cache-Control': 'no-store' });
    const mine = await identity.agents.listEnrolling(
      who.person.id,
      firstAgentName(c.req.header('accept-language')),
      () => firstEngineFor(ctx, who.person.id),
    );
    const agents = await Promise.all(
      mine.map(async (agent) => ({ agent, tokens: await identity.agentTokens.list(agent.id) })),
    );
    return c.html(
      accountPage({ csrf: who.csrf, email: who.person.email, agents, now: ctx.clock.now() }),
      200,
      PAGE_HEADERS,
    );
  });

  app.post('/account/agents/:agentId/tokens', async (c) => {
    const checked = await checkedPost(c);
    if (checked instanceof Response) return checked;
    const agent = await identity.agents.findOwned(checked.person.id, c.req.param('agentId'));
    if (!agent)
      return c.html(errorPage('No such agent', 'That agent is not one of yours.'), 404, PAGE_HEADERS);
    const { token } = await identity.agentTokens.create(agent.id);
    return c.html(newTokenPage(agent.name, token), 200, PAGE_HEADERS);
  });

  app.post('/account/tokens/:tokenId/revoke', async (c) => {
    const checked = await checkedPost(c);
    if (checked instanceof Response) return checked;
    if (!(await identity.agentTokens.revoke(checked.person.id, c.req.param('tokenId')))) {
      return c.html(
        errorPage('No such token', 'That token is not one of yours, or is already revoked.'),
        404,
        PAGE_HEADERS,
      );
    }
    return c.body(null, 303, { Location: '/account', 'Cache-Control': 'no-store' });
  });

  return app;
}
