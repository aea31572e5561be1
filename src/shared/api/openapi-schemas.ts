import { z } from 'zod';
import * as errors from './errors';
import * as events from './events';
import * as oauthRequests from './oauth-requests';
import * as requests from './requests';
import * as resources from './resources';
import * as responses from './responses';

/** The OpenAPI document's components: each exported zod schema under its exported name. */

export type Json = Record<string, unknown>;

export const SCHEMA_REF = '#/components/schemas/';

/** Every named schema of the contract, in a stable order, by its exported name. */
function namedSchemas(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  // Resources first, so aliases (e.g. `BundleBody` = `Bundle`) keep the resource's name.
  for (const module of [resources, errors, requests, oauthRequests, responses, events]) {
    for (const [name, value] of Object.entries(module).sort(([a], [b]) => a.localeCompare(b))) {
      if (value instanceof z.ZodType && !names.has(value)) names.set(value, name);
    }
  }
  return names;
}

/** Converts zod schemas to JSON Schema components that `$ref` one another. */
export class SchemaComponents {
  private readonly registry = z.registry<{ id: string }>();
  private readonly names = namedSchemas();
  private readonly used = new Set<string>();

  /** A `$ref` to the component for `schema`, naming it `fallbackName` if it has no exported name. */
  ref(schema: z.ZodType, fallbackName: string): Json {
    let name = this.names.get(schema);
    if (!name) {
      name = fallbackName;
      this.names.set(schema, name);
    }
    if (!this.registry.has(schema)) this.registry.add(schema, { id: name });
    this.used.add(name);
    return { $ref: SCHEMA_REF + name };
  }

  /** An inline JSON Schema (for parameters), without the `$schema` header. */
  inline(schema: z.ZodType): Json {
    const { $schema: _drop, ...json } = z.toJSONSchema(schema, {
      io: 'input',
      unrepresentable: 'any',
    }) as Json;
    return json;
  }

  /** Every registered schema (and the named schemas they use) as JSON Schema, sorted by name. */
  build(): Record<string, Json> {
    // Register every named schema so nested ones become `$ref`s too; unused ones are pruned later.
    for (const [schema, name] of this.names)
      if (!this.registry.has(schema)) this.registry.add(schema, { id: name });
    const { schemas } = z.toJSONSchema(this.registry, {
      io: 'input',
      unrepresentable: 'any',
      uri: (id) => SCHEMA_REF + id,
    });
    const out: Record<string, Json> = {};
    for (const name of Object.keys(schemas).sort()) {
      const { $schema: _s, $id: _i, id: _id, ...json } = schemas[name] as Json;
      out[name] = json;
    }
    return out;
  }
}
