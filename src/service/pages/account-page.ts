import { html } from 'hono/html';
import { apiRoutes } from '../../shared/api';
import type { AgentTokenInfo } from '../identity/agent-tokens';
import type { AgentRecord } from '../identity/agents';
import { ageWords } from './age-words';
import { layout, type Html } from './layout';
import { signedInAs } from './signed-in-as';

export interface AccountPageInput {
  csrf: string;
  email: string;
  agents: { agent: AgentRecord; tokens: AgentTokenInfo[] }[];
  notice?: string;
  /** The service's clock, which the keys' ages are counted from. */
  now: number;
}

/** The person's agents and their `gat_` tokens, called access keys on screen (hints only: a key is shown
 * once, when created). */
export function accountPage(input: AccountPageInput): Html {
  return layout(
    'Your account',
    html`<h1>Your account</h1>
      <div>
        ${signedInAs(input.email)}
        <form class="inline" method="post" action="/signout">
          <input type="hidden" name="csrf" value="${input.csrf}" />
          <button type="submit">Sign out</button>
        </form>
      </div>
      ${input.notice ? html`<p role="status">${input.notice}</p>` : ''}
      <h2>Agents</h2>
      ${input.agents.map(
        ({ agent, tokens }) =>
          html`<section class="agent" data-agent-id="${agent.id}">
            <h3>${agent.name}</h3>
            <p>Agent id <code>${agent.id}</code> (what <code>agentdesk sync --agent</code> takes)</p>
            ${
              tokens.length === 0
                ? html`<p>No access keys yet.</p>`
                : html`<ul>
                    ${tokens.map(
                      (token) =>
                        html`<li>
                          Access key <code>${token.hint}</code>, made
                          <time
                            datetime="${new Date(token.createdAt).toISOString()}"
                            title="${new Date(token.createdAt).toUTCString().replace('GMT', 'UTC')}"
                            >${ageWords(token.createdAt, input.now)}</time
                          >
                          <form class="inline" method="post" action="/account/tokens/${token.id}/revoke">
                            <input type="hidden" name="csrf" value="${input.csrf}" />
                            <button type="submit">Revoke</button>
                          </form>
                        </li>`,
                    )}
                  </ul>`
            }
            <form method="post" action="/account/agents/${agent.id}/tokens">
              <input type="hidden" name="csrf" value="${input.csrf}" />
              <button type="submit">Create an access key</button>
            </form>
          </section>`,
      )}`,
    true,
  );
}

/** The one time a new agent token is visible ("access key" on screen: a person's word for it). */
export function newTokenPage(agentName: string, token: string): Html {
  return layout(
    'New access key',
    html`<h1>New access key for ${agentName}</h1>
      <p>
        Copy it now: it is not shown again. It opens only this agent, to a tool such as
        <code>agentdesk sync --server</code> (the API's <code>${apiRoutes.getAgent.path}</code>).
      </p>
      <p class="token" id="agent-token">${token}</p>
      <p><a href="/account">Back to your account</a></p>`,
  );
}
