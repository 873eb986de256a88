import type { z } from 'zod';
import { InvalidRequestError } from '../../core/errors.ts';

/** Validates one part of a request; the message names the first offending field, `fields` lists all. */
export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  part: 'body' | 'query' | 'path',
  code = 'invalid_request',
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const path = [...issue.path.map(String), ...(keys.length === 1 ? keys : [])].join('.') || part;
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown ${part === 'query' ? 'parameter' : 'field'}`
        : issue.message;
    return { field: path, message: keys.length > 1 ? `unknown fields ${keys.join(', ')}` : message };
  });
  const first = fields[0] ?? { field: part, message: 'invalid' };
  throw new InvalidRequestError(code, `Invalid ${part}: ${first.field}: ${first.message}`, {
    fields,
  });
}

/** Query string -> object. A parameter given twice is refused rather than silently picking one. */
export function parseQueryString(raw: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    if (Object.hasOwn(result, key)) {
      throw new InvalidRequestError('invalid_request', `Invalid query: ${key}: given more than once`, {
        fields: [{ field: key, message: 'given more than once' }],
      });
    }
    result[key] = value;
  }
  return result;
}
