import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { logger } from './logger.ts';

/** A JSON string parsed into `schema` (an SQS body): an unparsable string is an issue, not a throw. */
export const jsonString = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: 'Not JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);

/**
 * An SQS consumer with partial batch responses, in the shape of Powertools' `BatchProcessor` with a
 * parser schema (`processPartialResponse`): each record is parsed by `schema` and handled on its own;
 * a record that fails its schema or whose handler throws is reported in `batchItemFailures`, so it
 * alone returns to the queue (and after the queue's maxReceiveCount goes to its dead-letter queue).
 */
export function partialBatch<S extends z.ZodType>(
  schema: S,
  handle: (record: z.output<S>, raw: SQSRecord) => Promise<void>,
) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const raw of event.Records) {
      const parsed = schema.safeParse(raw);
      try {
        if (!parsed.success)
          throw new Error(`Invalid record: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
        await handle(parsed.data, raw);
      } catch (error) {
        logger.error('Record failed', { messageId: raw.messageId, error: (error as Error).message });
        failures.push({ itemIdentifier: raw.messageId });
      }
    }
    return { batchItemFailures: failures };
  };
}
