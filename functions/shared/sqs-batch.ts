import {
  BatchProcessor,
  EventType,
  type ParsedRecord,
  processPartialResponse,
} from '@aws-lambda-powertools/batch';
import { parser } from '@aws-lambda-powertools/batch/parser';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { z } from 'zod';
import { logger } from './logger.ts';

/** An SQS record whose body was parsed (JSON, then the body's schema). */
export type ParsedSqsRecord<S extends z.ZodType> = ParsedRecord<SQSRecord, z.output<S>>;

/**
 * An SQS consumer on Powertools' `BatchProcessor` with its parser: each record's body is parsed as JSON
 * and then by `bodySchema`, and handled on its own, one after the other; a record that fails its schema
 * or whose handler throws is reported in `batchItemFailures`, so it alone returns to the queue (and
 * after the queue's maxReceiveCount goes to its dead-letter queue). A batch whose every record failed
 * is reported the same way, not thrown.
 */
export function sqsConsumer<S extends z.ZodType>(
  bodySchema: S,
  handle: (record: ParsedSqsRecord<S>) => Promise<void>,
): (event: SQSEvent, context?: Context) => Promise<SQSBatchResponse> {
  const processor = new BatchProcessor(EventType.SQS, {
    parser,
    innerSchema: bodySchema,
    transformer: 'json',
    logger,
  });
  return (event, context) =>
    processPartialResponse(event, handle as (record: SQSRecord) => Promise<void>, processor, {
      ...(context ? { context } : {}),
      throwOnFullBatchFailure: false,
      processInParallel: false,
    });
}
