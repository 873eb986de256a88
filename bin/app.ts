import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { TABLE_DESIGN } from '../functions/adapters/dynamodb/table.ts';
import { EdgeFirewallStack, FIREWALL_REQUESTS_PER_FIVE_MINUTES } from '../lib/edge-firewall-stack.ts';
import { StatefulStack } from '../lib/stateful-stack.ts';
import { RESERVED_CONCURRENCY, StatelessStack } from '../lib/stateless-stack.ts';

const app = new App();
const stage = (app.node.tryGetContext('stage') as string | undefined) ?? 'dev';
const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };

const wholeNumber = (key: string, fallback: number) => {
  const value = app.node.tryGetContext(key) as string | number | undefined;
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0)
    throw new Error(`-c ${key} must be a whole number, 0 or more`);
  return number;
};
const tableIndexes = wholeNumber('tableIndexes', Object.keys(TABLE_DESIGN.indexes).length);
if (tableIndexes < 1 || tableIndexes > Object.keys(TABLE_DESIGN.indexes).length)
  throw new Error(`-c tableIndexes must be 1 to ${Object.keys(TABLE_DESIGN.indexes).length}`);
const stateful = new StatefulStack(app, `ProjectSource-${stage}-Stateful`, { env, stage, tableIndexes });
// CloudFront reads web ACLs from us-east-1 only: the firewall is its own stack there.
new EdgeFirewallStack(app, `ProjectSource-${stage}-EdgeFirewall`, {
  env: { account: env.account, region: 'us-east-1' },
  stage,
  requestsPerFiveMinutes: wholeNumber('firewallRequestsPerFiveMinutes', FIREWALL_REQUESTS_PER_FIVE_MINUTES),
});
const webAclArn = app.node.tryGetContext('webAclArn') as string | undefined;
if (
  webAclArn !== undefined &&
  !/^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]+\/[\w-]+$/.test(webAclArn)
)
  throw new Error(
    '-c webAclArn must be the WebAclArn output of the EdgeFirewall stack (a us-east-1 global web ACL)',
  );
const searchRerank = (app.node.tryGetContext('searchRerank') as string | undefined) ?? 'off';
if (searchRerank !== 'off' && searchRerank !== 'bedrock')
  throw new Error('-c searchRerank must be off or bedrock');
const stateless = new StatelessStack(app, `ProjectSource-${stage}-Stateless`, {
  env,
  stage,
  searchRerank,
  ...(webAclArn ? { webAclArn } : {}),
  reservedConcurrency: {
    extraction: wholeNumber('extractionConcurrency', RESERVED_CONCURRENCY.extraction),
    stream: wholeNumber('streamConcurrency', RESERVED_CONCURRENCY.stream),
  },
});
// Imported by name rather than by export: only the deployment order links the two.
stateless.addStackDependency(stateful);

Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
