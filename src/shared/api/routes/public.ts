import { SlugParams } from '../requests';
import { defineRoute, ok } from './define-route';

/** Public pages: a shared conversation and this OpenAPI document. */
export const publicSection = [
  defineRoute({
    operationId: 'sharedConversationPage',
    method: 'GET',
    path: '/s/{slug}',
    tag: 'public',
    summary: 'Public page of a shared conversation',
    description:
      'The spec does not show the contents. Ours (our choice): a read-only HTML page with the title and the messages as escaped text, `noindex`; 404 once unshared or unknown.',
    scope: null,
    credential: 'none',
    request: { params: SlugParams },
    responses: { 200: ok('The page.', 'html'), 404: ok('Not shared (our choice: an HTML page).', 'html') },
  }),
  defineRoute({
    operationId: 'openapi',
    method: 'GET',
    path: '/openapi.yaml',
    tag: 'public',
    summary: 'This OpenAPI 3.1 description (version 2.0)',
    description: 'Public, no bearer needed (our choice).',
    scope: null,
    credential: 'none',
    request: {},
    responses: { 200: ok('`application/yaml`.', 'yaml') },
  }),
] as const;
