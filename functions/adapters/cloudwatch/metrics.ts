import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * The service's CloudWatch metrics (namespace `ProjectSource`), written as embedded metric format
 * lines by Powertools Metrics. Each figure is published as it is recorded (one line): the functions
 * that record one do so once or twice an invocation, so nothing waits for the end of the handler.
 * Outside a Lambda execution environment (the local stack, tests, scripts) nothing is written, as
 * Powertools Tracer does for traces.
 */
const metrics = new Metrics({ namespace: 'ProjectSource', serviceName: 'project-source-api' });

const UNITS = {
  PagesExtracted: MetricUnit.Count,
  SearchLatency: MetricUnit.Milliseconds,
  AnswerLatency: MetricUnit.Milliseconds,
  CreditsCharged: MetricUnit.Count,
  CreditsDebited: MetricUnit.Count,
} as const;

export type MetricName = keyof typeof UNITS;

export function recordMetric(name: MetricName, value: number): void {
  if (!process.env.AWS_EXECUTION_ENV || !Number.isFinite(value)) return;
  metrics.singleMetric().addMetric(name, UNITS[name], value);
}
