import type { Logger } from '@aws-lambda-powertools/logger';
import { engineExtractor } from '../../adapters/extraction/engine.ts';
import { logger } from '../logger.ts';
import { pipelineBuilders } from './pipeline.ts';
import { wire } from './wire.ts';

/**
 * The engine profile: the pipeline's and the extraction engine, for the tasks that read PDFs (their
 * functions carry the engine layer).
 */
export function engineWiring(log: Logger = logger) {
  return wire({ ...pipelineBuilders(log), extractor: () => engineExtractor });
}
