/**
 * What a service answers: its value, or a refusal in our own words (`code`) with a plain sentence for a
 * person (`message`). Services never name an HTTP status or a wire error code: the route maps each refusal
 * to both (`refusalJson` in http/errors.ts), so the domain does not know HTTP.
 */
export type Outcome<T, Code extends string> = { ok: true; value: T } | { ok: false; refusal: Refusal<Code> };

export interface Refusal<Code extends string> {
  code: Code;
  message: string;
}

export function success<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function refuse<Code extends string>(
  code: Code,
  message: string,
): { ok: false; refusal: Refusal<Code> } {
  return { ok: false, refusal: { code, message } };
}
