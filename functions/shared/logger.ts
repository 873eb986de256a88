import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

export const logger = new Logger({ serviceName: 'project-source-api' });

/**
 * The logger of one invocation: a child of `logger` carrying this invocation's Lambda context and
 * keys. Keys are never appended to the shared logger, so concurrent invocations in one process (the
 * local stack; Lambda managed instances) never log each other's request id or path.
 */
export function invocationLogger(context: Context | undefined, keys: Record<string, unknown>): Logger {
  const child = logger.createChild({ persistentKeys: keys });
  if (context?.awsRequestId) child.addContext(context);
  return child;
}

/** The `{ info, error }` logging port of the use cases, on a Powertools logger. */
export function logPort(log: Logger): {
  info(message: string, attributes?: Record<string, unknown>): void;
  error(message: string, attributes?: Record<string, unknown>): void;
} {
  return {
    info: (message, attributes = {}) => log.info(message, attributes),
    error: (message, attributes = {}) => log.error(message, attributes),
  };
}
