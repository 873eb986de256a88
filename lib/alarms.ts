import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';

/** An alarm when a count is at least 1 in 5 minutes (no data is not a breach); without actions. */
export function whenAny(scope: Construct, id: string, metric: Metric, description: string): Alarm {
  return new Alarm(scope, id, {
    alarmDescription: description,
    metric: metric.with({ period: Duration.minutes(5), statistic: 'Maximum' }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}
