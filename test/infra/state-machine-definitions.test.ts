import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESERVED_CONCURRENCY } from '../../lib/stateless-stack.ts';

/** The ASL files as CDK deploys them and the local runner runs them (no synth needed to read them). */
interface Retrier {
  ErrorEquals: string[];
  IntervalSeconds?: number;
  MaxAttempts?: number;
  BackoffRate?: number;
  MaxDelaySeconds?: number;
}
interface State {
  Type: string;
  MaxConcurrency?: number;
  Retry?: Retrier[];
  ItemProcessor?: { States: Record<string, State> };
}
interface Definition {
  TimeoutSeconds: number;
  States: Record<string, State>;
}

const DIRECTORY = 'stepfunctions';
const definitions = readdirSync(DIRECTORY)
  .filter((name) => name.endsWith('.asl.json'))
  .map((name) => ({
    name,
    definition: JSON.parse(readFileSync(join(DIRECTORY, name), 'utf8')) as Definition,
  }));

/** Every state of a definition with its path, Map children included. */
function statesOf(states: Record<string, State>, path = ''): { path: string; state: State }[] {
  return Object.entries(states).flatMap(([name, state]) => [
    { path: `${path}${name}`, state },
    ...(state.ItemProcessor ? statesOf(state.ItemProcessor.States, `${path}${name}/`) : []),
  ]);
}

/** The longest a retrier waits in all before it gives up (Step Functions' schedule, without jitter). */
function retryWaitSeconds(retrier: Retrier): number {
  let total = 0;
  let delay = retrier.IntervalSeconds ?? 1;
  for (let attempt = 0; attempt < (retrier.MaxAttempts ?? 3); attempt++) {
    total += Math.min(delay, retrier.MaxDelaySeconds ?? Number.POSITIVE_INFINITY);
    delay *= retrier.BackoffRate ?? 2;
  }
  return total;
}

function stateAt(file: string, path: string): State {
  const found = definitions
    .filter(({ name }) => name === file)
    .flatMap(({ definition }) => statesOf(definition.States))
    .find((candidate) => candidate.path === path);
  if (!found) throw new Error(`No state ${path} in ${file}`);
  return found.state;
}

describe('state machine definitions', () => {
  it('reads the five machines of the service', () => {
    expect(definitions.map(({ name }) => name).sort()).toEqual([
      'normalize-regions.asl.json',
      'process-job.asl.json',
      'provision-project.asl.json',
      'reconcile-index.asl.json',
      'review-execution.asl.json',
    ]);
  });

  it('bounds every Map of every machine, inline or distributed, nested or not, by a MaxConcurrency', () => {
    // Prepare
    const maps = definitions.flatMap(({ name, definition }) =>
      statesOf(definition.States)
        .filter(({ state }) => state.Type === 'Map')
        .map(({ path, state }) => ({ map: `${name}#${path}`, maxConcurrency: state.MaxConcurrency })),
    );

    // Assess: 0 or absent means unbounded in Step Functions.
    expect(maps.map(({ map }) => map).sort()).toEqual([
      'normalize-regions.asl.json#NormalizeDocuments',
      'process-job.asl.json#InspectFiles',
      'process-job.asl.json#ProcessFiles',
      'process-job.asl.json#ProcessFiles/ExtractBatches',
      'reconcile-index.asl.json#IndexDocuments',
    ]);
    for (const { map, maxConcurrency } of maps) {
      expect(Number.isInteger(maxConcurrency), map).toBe(true);
      expect(maxConcurrency, map).toBeGreaterThanOrEqual(1);
      expect(maxConcurrency, map).toBeLessThanOrEqual(RESERVED_CONCURRENCY.extraction);
    }
  });

  it("keeps one job's extraction fan-out under the extraction function's reserved concurrency", () => {
    const files = stateAt('process-job.asl.json', 'ProcessFiles').MaxConcurrency as number;
    const batches = stateAt('process-job.asl.json', 'ProcessFiles/ExtractBatches').MaxConcurrency as number;
    expect(files * batches).toBeLessThanOrEqual(RESERVED_CONCURRENCY.extraction);
  });

  it('waits out throttling of the fan-out tasks for as long as the job may run, never a shorter budget', () => {
    // Prepare: two large jobs share the reserved concurrency; the later one's batches are throttled
    // until the earlier one's end, which may take the whole execution timeout.
    const { definition } = definitions.find(({ name }) => name === 'process-job.asl.json') as {
      definition: Definition;
    };
    const tasks = ['InspectFiles/InspectFile', 'ProcessFiles/ExtractBatches/ExtractPageBatch'];

    // Act
    const throttleWaits = tasks.map((path) => {
      const throttle = stateAt('process-job.asl.json', path).Retry?.find((retrier) =>
        retrier.ErrorEquals.includes('Lambda.TooManyRequestsException'),
      );
      return { path, throttle, seconds: throttle ? retryWaitSeconds(throttle) : 0 };
    });

    // Assess
    for (const { path, throttle, seconds } of throttleWaits) {
      expect(throttle?.ErrorEquals, path).toEqual(['Lambda.TooManyRequestsException']);
      expect(throttle?.MaxDelaySeconds, path).toBeLessThanOrEqual(60);
      expect(seconds, path).toBeGreaterThanOrEqual(definition.TimeoutSeconds);
    }
  });

  it("retries the Lambda service's own failures of a page batch for minutes, its code's failures three times", () => {
    const retry = stateAt('process-job.asl.json', 'ProcessFiles/ExtractBatches/ExtractPageBatch').Retry ?? [];
    const service = retry.find((retrier) => retrier.ErrorEquals.includes('Lambda.ServiceException'));
    const code = retry.find((retrier) => retrier.ErrorEquals.includes('States.TaskFailed'));
    expect(service?.ErrorEquals.sort()).toEqual(
      ['Lambda.AWSLambdaException', 'Lambda.SdkClientException', 'Lambda.ServiceException'].sort(),
    );
    expect(retryWaitSeconds(service as Retrier)).toBeGreaterThanOrEqual(300);
    expect(code).toMatchObject({ ErrorEquals: ['States.TaskFailed'], MaxAttempts: 3 });
  });
});
