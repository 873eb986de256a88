import { z } from 'zod';

/**
 * Query parameters arrive as strings; these schemas parse them strictly. An integer is written in
 * plain decimal digits: `0x10`, `1e1`, `+2`, ` 1` or `1.0` are refused, not coerced.
 */
const decimalInteger = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,14})$/, 'must be an integer written in decimal digits')
  .transform(Number);

export function limitParam(max: number, defaultValue: number) {
  return decimalInteger
    .pipe(z.number().min(1, 'must be at least 1').max(max, `must be at most ${max}`))
    .default(defaultValue)
    .meta({ type: 'integer', minimum: 1, maximum: max, default: defaultValue });
}

export const cursorParam = z.string().min(1).max(4096).optional();

export const booleanParam = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

export const pageNumberParam = decimalInteger
  .pipe(z.number().min(1, 'must be at least 1'))
  .meta({ type: 'integer', minimum: 1 });

export const projectIdPath = z.object({ projectId: z.string() });
export const jobIdPath = z.object({ jobId: z.string() });

export const PageEnvelopeSchema = z.object({
  total: z.number().int().describe('Number of matching items across all pages.'),
  limit: z.number().int(),
  cursor: z.string().nullable(),
  nextCursor: z.string().nullable().describe('Null on the last page.'),
  returnedCount: z.number().int(),
  hasMore: z.boolean(),
  pageInfo: z.object({
    startCursor: z.string().nullable(),
    endCursor: z.string().nullable(),
    hasPreviousPage: z.boolean(),
    hasNextPage: z.boolean(),
  }),
});

/** The body of every error response. */
export const ErrorEnvelopeSchema = z
  .object({
    error: z
      .object({
        code: z.string().describe('Stable machine-readable code, e.g. `invalid_request`, `scope_required`.'),
        message: z
          .string()
          .describe('Human-readable explanation; names the offending field for validation errors.'),
        requestId: z.string().describe('Also in the `x-request-id` header and the service logs.'),
        fields: z
          .array(z.object({ field: z.string(), message: z.string() }))
          .optional()
          .describe('Every invalid field, for validation errors.'),
      })
      .catchall(z.unknown()),
  })
  .meta({ id: 'ErrorEnvelope' });
