/**
 * Operator command: brings the content rows a deployed stage wrote before the listing indexes and
 * project counters existed to the current key design (functions/adapters/dynamodb/content-upgrade.ts),
 * with the AWS credentials of the environment. Run it once after the deploy that adds the
 * `regionsByType` and `regionsByPage` indexes (docs/operations.md). Safe to run again: every step is
 * conditional, and a second run changes nothing.
 *
 *   npx tsx bin/upgrade-stored-content.ts --stage prod
 *
 * Prints `{table, changed}` as JSON. `--table` names the table directly instead of the stage's.
 */
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { upgradeStoredContent } from '../functions/adapters/dynamodb/content-upgrade.ts';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

let values: { stage?: string; table?: string };
try {
  ({ values } = parseArgs({ options: { stage: { type: 'string' }, table: { type: 'string' } } }));
} catch (error) {
  fail((error as Error).message);
}
if (!values.table && !values.stage) fail('Give --stage (the deployed stage) or --table (a table name).');
if (values.stage && !/^[a-z][a-z0-9-]{0,30}$/.test(values.stage))
  fail('--stage is lowercase letters, digits and dashes.');

// The stage's table is named as the stack names it (lib/resource-names.ts).
const table = values.table ?? `project-source-${values.stage}`;
const client = new DynamoDBClient({});
const changed = await upgradeStoredContent(DynamoDBDocumentClient.from(client), table);
client.destroy();
process.stdout.write(`${JSON.stringify({ table, changed })}\n`);
