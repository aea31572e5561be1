/** The v2 API contract: zod schemas (with inferred types), the route table and the OpenAPI builder. */
export * from './limits';
export * from './common';
export * from './message';
export * from './resources';
export * from './requests';
export * from './oauth-requests';
export * from './send-message';
export * from './responses';
export * from './events';
export * from './errors';
export * from './validation-message';
export * from './route-types';
export * from './routes';
export * from './route-matcher';
export * from './agent-about';
