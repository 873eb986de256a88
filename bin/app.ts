import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { StatefulStack } from '../lib/stateful-stack.ts';
import { RESERVED_CONCURRENCY, StatelessStack } from '../lib/stateless-stack.ts';

const app = new App();
const stage = (app.node.tryGetContext('stage') as string | undefined) ?? 'dev';
const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };

const stateful = new StatefulStack(app, `ProjectSource-${stage}-Stateful`, { env, stage });
const reserved = (key: string, fallback: number) => {
  const value = app.node.tryGetContext(key) as string | number | undefined;
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0)
    throw new Error(`-c ${key} must be a whole number, 0 or more`);
  return number;
};
const stateless = new StatelessStack(app, `ProjectSource-${stage}-Stateless`, {
  env,
  stage,
  reservedConcurrency: {
    extraction: reserved('extractionConcurrency', RESERVED_CONCURRENCY.extraction),
    stream: reserved('streamConcurrency', RESERVED_CONCURRENCY.stream),
  },
});
// Imported by name rather than by export: only the deployment order links the two.
stateless.addStackDependency(stateful);

Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
