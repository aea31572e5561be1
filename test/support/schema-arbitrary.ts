import fc from 'fast-check';
import { z } from 'zod';

/** A JSON Schema node as zod's `z.toJSONSchema` writes it (the parts the generator reads). */
interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
}

/** Strings an attacker or a fuzzer tries: traversal, markup, control and odd Unicode, escapes, long ones. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '../../../etc/passwd',
    '..\\..\\windows\\win.ini',
    '/etc/passwd',
    'C:\\Windows',
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    "' OR 1=1 --",
    '%',
    '%00',
    '\u0000',
    '\u202e\u0645\u0631\u062d\u0628\u0627',
    '🦄'.repeat(40),
    'a'.repeat(70_000),
    '{{constructor.constructor}}',
    '__proto__',
    'null',
    '1e308',
    'NaN',
  ),
  fc.string({ unit: 'binary', maxLength: 64 }),
);

/** Numbers at the edges: huge, tiny, negative, unsafe integers (JSON has no NaN or Infinity). */
export const hostileNumber = fc.constantFrom(
  1e308,
  -1e308,
  1e12,
  -1,
  0,
  -0,
  1e-9,
  2 ** 53 + 1,
  Number.MAX_SAFE_INTEGER,
  0.5,
);

/** Any JSON value of the wrong kind for most fields. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.constantFrom(null, true, false, [], {}, [null], { __proto__: { polluted: true } }, { $ne: 1 }),
  fc.array(hostileString, { maxLength: 3 }),
);

/** Values that the schema `node` accepts (as far as a JSON Schema can say). */
function validFor(node: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (node.const !== undefined) return fc.constant(node.const);
  if (node.enum) return fc.constantFrom(...node.enum);
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives && alternatives.length > 0)
    return fc.oneof(...alternatives.map((n) => validFor(n, depth)));
  if (node.allOf && node.allOf.length > 0) return validFor(node.allOf[0] as JsonSchema, depth);
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'string':
      if (node.format === 'date-time')
        return fc
          .date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) })
          .map((d) => d.toISOString());
      if (node.format === 'uuid') return fc.uuid();
      if (node.pattern)
        return fc.stringMatching(new RegExp(node.pattern)).filter((s) => s.length <= (node.maxLength ?? 1e6));
      return fc.string({ minLength: node.minLength ?? 0, maxLength: Math.min(node.maxLength ?? 40, 200) });
    case 'integer':
      return fc.integer({ min: node.minimum ?? -1000, max: node.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({
        min: node.minimum ?? -1e6,
        max: node.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      if (depth > 3) return fc.constant([]);
      return fc.array(node.items ? validFor(node.items, depth + 1) : fc.anything(), {
        minLength: node.minItems ?? 0,
        maxLength: Math.min(node.maxItems ?? 3, 4),
      });
    case 'object': {
      if (depth > 3 || !node.properties) return fc.constant({});
      const required = new Set(node.required ?? []);
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, child] of Object.entries(node.properties)) shape[name] = validFor(child, depth + 1);
      return fc.record(shape, { requiredKeys: [...required].filter((k) => k in shape) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A valid value with one thing broken: a field replaced by a hostile value, dropped, or an extra one added. */
function brokenFor(node: JsonSchema): fc.Arbitrary<unknown> {
  return fc
    .tuple(validFor(node), hostileValue, fc.nat(), fc.constantFrom('replace', 'drop', 'extra'))
    .map(([value, bad, pick, how]) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const keys = Object.keys(node.properties ?? {});
      const key = keys.length > 0 ? (keys[pick % keys.length] as string) : 'extra';
      if (how === 'replace') copy[key] = bad;
      else if (how === 'drop') delete copy[key];
      else copy[`extra_${pick % 5}`] = bad;
      return copy;
    });
}

/**
 * Request bodies derived from a zod schema: mostly valid-shaped values (so validation is passed and the
 * handler runs), values with one field broken, and plain hostile values of the wrong type.
 */
export function bodyArbitrary(schema: z.ZodType): fc.Arbitrary<unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return fc.oneof(
    { weight: 3, arbitrary: validFor(json) },
    { weight: 3, arbitrary: brokenFor(json) },
    { weight: 1, arbitrary: hostileValue },
  );
}

/** Query parameters from a zod object schema, as strings (or hostile strings). */
export function queryArbitrary(
  schema: z.ZodObject | undefined,
): fc.Arbitrary<Record<string, string | undefined>> {
  if (!schema) return fc.constant({});
  const shape: Record<string, fc.Arbitrary<string>> = {};
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  for (const [name, child] of Object.entries(json.properties ?? {})) {
    shape[name] = fc.oneof(
      validFor(child).map((v) => String(v)),
      // Not the 70 kB strings: a URL over Node's header limit is refused by Node itself (431).
      hostileString.filter((text) => text.length < 1000),
      hostileNumber.map(String),
    );
  }
  return fc.record(shape, { requiredKeys: [] });
}
