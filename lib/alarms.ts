import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
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

/**
 * One CloudWatch dashboard for operators (docs/operations.md): the alarms' states, the API's
 * traffic, errors and latency, the machines' executions, the functions' errors and throttles, and
 * the account's concurrent executions (what reserved concurrency protects).
 */
export function operationsDashboard(
  scope: Construct,
  id: string,
  props: {
    name: string;
    api: HttpApi;
    alarms: Alarm[];
    machines: StateMachine[];
    functions: IFunction[];
  },
): Dashboard {
  const period = Duration.minutes(5);
  const dashboard = new Dashboard(scope, id, {
    dashboardName: props.name,
    defaultInterval: Duration.hours(6),
  });
  dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: props.alarms, width: 24 }));
  dashboard.addWidgets(
    new GraphWidget({
      title: 'API requests and errors',
      left: [props.api.metricCount({ period, statistic: 'Sum' })],
      right: [
        props.api.metricClientError({ period, statistic: 'Sum' }),
        props.api.metricServerError({ period, statistic: 'Sum' }),
      ],
      width: 12,
    }),
    new GraphWidget({
      title: 'API latency p50 / p95',
      left: [
        props.api.metricLatency({ period, statistic: 'p50' }),
        props.api.metricLatency({ period, statistic: 'p95' }),
      ],
      width: 12,
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: 'Executions started / failed / timed out',
      left: props.machines.map((machine) => machine.metricStarted({ period, statistic: 'Sum' })),
      right: props.machines.flatMap((machine) => [
        machine.metricFailed({ period, statistic: 'Sum' }),
        machine.metricTimedOut({ period, statistic: 'Sum' }),
      ]),
      width: 12,
    }),
    new GraphWidget({
      title: 'Concurrent executions (account)',
      left: [
        new Metric({
          namespace: 'AWS/Lambda',
          metricName: 'ConcurrentExecutions',
          period,
          statistic: 'Maximum',
        }),
      ],
      width: 12,
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: 'Function errors',
      left: props.functions.map((fn) => fn.metricErrors({ period, statistic: 'Sum' })),
      width: 12,
    }),
    new GraphWidget({
      title: 'Function throttles',
      left: props.functions.map((fn) => fn.metricThrottles({ period, statistic: 'Sum' })),
      width: 12,
    }),
  );
  return dashboard;
}
