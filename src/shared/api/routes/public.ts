import { z } from 'zod';
import { SlugParams } from '../requests';
import { CatalogSkillFolder } from '../responses';
import { defineRoute, notFound, ok } from './define-route';

/** Public pages: a shared conversation, this OpenAPI document and the catalog's skill folders. */
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
  defineRoute({
    operationId: 'catalogSkillFolder',
    method: 'GET',
    path: '/catalogo/skills/{slug}',
    tag: 'public',
    summary: 'One skill folder of the community catalog (the `url` of a catalog item)',
    description:
      'Our extension, public, no bearer (our choice): the vendored files of one catalog skill as JSON. `v` is the catalog pin the item’s `url` names; the service always answers with the files it holds and their `pin`.',
    scope: null,
    credential: 'none',
    extension: true,
    request: { params: SlugParams, query: z.object({ v: z.string().optional() }) },
    responses: { 200: ok('The skill folder.', CatalogSkillFolder), 404: notFound },
  }),
] as const;
