import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { StatefulStack } from '../lib/stateful-stack.ts';
import { StatelessStack } from '../lib/stateless-stack.ts';

const app = new App();
const stage = (app.node.tryGetContext('stage') as string | undefined) ?? 'dev';
const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };

const stateful = new StatefulStack(app, `ProjectSource-${stage}-Stateful`, { env, stage });
const stateless = new StatelessStack(app, `ProjectSource-${stage}-Stateless`, { env, stage });
// Imported by name rather than by export: only the deployment order links the two.
stateless.addStackDependency(stateful);

Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
