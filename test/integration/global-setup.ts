import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { FunctionEnvironment } from '../../functions/shared/function-environment.ts';
import { STACK_SETTINGS } from './stack-settings.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    localEnv: Record<string, string>;
    functionEnvironments: Record<string, FunctionEnvironment>;
  }
}

/** One local stack (real DynamoDB Local, S3 emulator, SQS, ASL runner, API server) for the whole run. */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'psa-test-'));
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const { startLocalStack } = await import('../../local/stack.ts');
  const started = Date.now();
  const stack = await startLocalStack({
    dataDir,
    persistDynamo: false,
    apiPort: 0,
    // Small thresholds so tests exercise multipart uploads and several page batches with small files.
    extraEnv: {
      MULTIPART_THRESHOLD_BYTES: String(6 * 1024 * 1024),
      MULTIPART_PART_SIZE_BYTES: String(5 * 1024 * 1024),
      PAGES_PER_BATCH: '1',
      WEBHOOK_RETRY_BASE_SECONDS: '1',
      ...Object.fromEntries(Object.entries(STACK_SETTINGS).map(([name, value]) => [name, String(value)])),
    },
  });
  console.log(`local stack ready in ${Date.now() - started} ms at ${stack.apiUrl}`);
  project.provide('apiUrl', stack.apiUrl);
  project.provide('localEnv', stack.env);
  project.provide('functionEnvironments', stack.functionEnvironments);
  return async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
