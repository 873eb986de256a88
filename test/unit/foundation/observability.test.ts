import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';

describe('metrics and traces', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('writes a metric as one embedded-metric-format line in a Lambda execution environment', async () => {
    // Prepare
    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs24.x');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const log = vi.spyOn(console, 'log').mockImplementation((line) => void lines.push(String(line)));
    const { recordMetric } = await import('../../../functions/adapters/cloudwatch/metrics.ts');

    // Act
    recordMetric('SearchLatency', 12.5);

    // Assess
    log.mockRestore();
    const emf = lines.map((line) => line.trim()).find((line) => line.includes('"_aws"'));
    expect(emf).toBeDefined();
    const parsed = JSON.parse(emf as string);
    expect(parsed._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'ProjectSource',
      Metrics: [{ Name: 'SearchLatency', Unit: 'Milliseconds' }],
    });
    expect(parsed.SearchLatency).toBe(12.5);
  });

  it('writes nothing outside Lambda (the local stack, tests)', async () => {
    // Prepare
    vi.stubEnv('AWS_EXECUTION_ENV', '');
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const { recordMetric } = await import('../../../functions/adapters/cloudwatch/metrics.ts');

    // Act
    recordMetric('PagesExtracted', 25);

    // Assess
    expect(write).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  it('captures the SDK clients with the tracer, which hands them back unchanged outside Lambda', async () => {
    // Act
    const { traced, tracer } = await import('../../../functions/shared/clients.ts');
    const client = new DynamoDBClient({ region: 'us-east-1' });

    // Assess
    expect(tracer.isTracingEnabled()).toBe(false);
    expect(traced(client)).toBe(client);
  });
});
