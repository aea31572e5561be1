import { expect } from 'vitest';
import type { z } from 'zod';
import { describeZodError, zodErrorFields } from '../../../../src/shared/api';

/** Schemas exercised by the tests, so a coverage test can prove none was forgotten. */
export const covered = new Set<z.ZodType>();

export function expectAccepts(schema: z.ZodType, value: unknown): unknown {
  covered.add(schema);
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`expected to pass, got: ${describeZodError(result.error)}`);
  return result.data;
}

/**
 * Expects a rejection whose readable message names `field` (a dotted path such as
 * `servers.0.url`), and whose issue path points at it.
 */
export function expectRejects(schema: z.ZodType, value: unknown, field: string): string {
  covered.add(schema);
  const result = schema.safeParse(value);
  expect(result.success, `expected ${field} to be rejected`).toBe(false);
  const error = (result as { error: z.ZodError }).error;
  const message = describeZodError(error);
  expect(zodErrorFields(error), message).toContain(field);
  expect(message).toContain(`${field}: `);
  return message;
}
