import type { Logger } from '@aws-lambda-powertools/logger';
import { engineExtractor } from '../adapters/extraction/engine.ts';
import type { PipelineDeps } from '../core/pipeline/ports.ts';
import { logger } from './logger.ts';
import { jobDeps } from './pipeline-container.ts';

/** The job's adapters and the extraction engine: for the tasks that read PDFs (their functions carry the engine layer). */
export async function pipelineDeps(log: Logger = logger): Promise<PipelineDeps> {
  // Keeps the job adapters' getters (each adapter is still built on first use).
  return Object.defineProperty(await jobDeps(log), 'extractor', {
    value: engineExtractor,
    enumerable: true,
  }) as PipelineDeps;
}
