import type { z } from 'zod';
import type { Scope } from './common';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route: `agent-or-oauth` = an agent token (`gat_`, only its own agent) or an OAuth
 * token with the scope (spec "AT"); `oauth` = OAuth token with the scope only ("OA"); `none` = public.
 */
export type CredentialKind = 'agent-or-oauth' | 'oauth' | 'none';

/** How a request body travels. `audio` is any `audio/*` content type. */
export type RequestBodyKind = 'json' | 'octet-stream' | 'form' | 'audio';

export interface RequestBodySpec {
  kind: RequestBodyKind;
  /** Validates JSON and form bodies; absent for raw bytes. */
  schema?: z.ZodType;
  required: boolean;
  /** Byte cap the service enforces with 413. */
  maxBytes?: number;
  description?: string;
}

export interface RequestSpec {
  /** Path parameters, named as in `path`. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: RequestBodySpec;
  /** Request headers that matter, e.g. `Accept` for our file-bytes extension. */
  headers?: Record<string, string>;
}

/** Response bodies that are not JSON described by a schema. */
export type ResponseMarker =
  /** `text/plain` (401 and 403). */
  | 'text'
  | 'html'
  | 'yaml'
  | 'event-stream'
  | 'bytes'
  /** A stored file's bytes under the file's own `Content-Type` (any media type). */
  | 'file'
  /** No body (204, 302). */
  | 'empty';

export interface ResponseHeaderSpec {
  description: string;
  type: 'string' | 'integer';
}

export interface ResponseSpec {
  description: string;
  body: z.ZodType | ResponseMarker;
  /** For `event-stream`: the schema of each message of the stream. */
  itemSchema?: z.ZodType;
  /** Also answers raw bytes (`application/octet-stream`) when asked through `Accept` (our extension). */
  alsoBytes?: boolean;
  /** Also answers this JSON body under the same status (a guard's `{error, detalle}` beside a plain-text 403). */
  alsoJson?: z.ZodType;
  headers?: Record<string, ResponseHeaderSpec>;
}

export interface RouteSpec {
  /** Stable name, unique; also the OpenAPI `operationId`. */
  operationId: string;
  method: HttpMethod;
  /** OpenAPI style, e.g. `/api/v2/agents/{id}`. A final `{path}` spans several segments and may be empty. */
  path: string;
  tag: string;
  summary: string;
  /** What the service does, including behaviour the spec leaves open, marked "(our choice)". */
  description?: string;
  scope: Scope | null;
  credential: CredentialKind;
  request: RequestSpec;
  responses: Record<number, ResponseSpec>;
  /** Not in the spec: an addition of our service. Kept out of the spec-coverage list. */
  extension?: true;
}
