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
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { upgradeStoredContent } from '../functions/adapters/dynamodb/content-upgrade.ts';
import { operatorOptions, targetTable } from './operator-options.ts';

const table = targetTable(operatorOptions({}));
const client = new DynamoDBClient({});
const changed = await upgradeStoredContent(DynamoDBDocumentClient.from(client), table);
client.destroy();
process.stdout.write(`${JSON.stringify({ table, changed })}\n`);
