/**
 * Operator command: creates an organization with its first API key (all scopes) and a session, in a
 * deployed stage's table, with the AWS credentials of the environment. There is no public route that
 * creates organizations; this is how the first one is made (docs/operations.md).
 *
 *   npx tsx bin/bootstrap-organization.ts --stage prod --name "Acme Builders" --credits 100000 [--plan enterprise]
 *
 * Prints `{orgId, keyId, apiKey, sessionToken}` as JSON once: the key and the session token are
 * stored only as hashes and cannot be shown again. `--table` names the table directly (the local
 * stack's, for instance) instead of the stage's.
 */
import { parseArgs } from 'node:util';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

let parsed: ReturnType<typeof parseOptions>;
try {
  parsed = parseOptions();
} catch (error) {
  fail((error as Error).message);
}
const { values } = parsed;

function parseOptions() {
  return parseArgs({
    options: {
      stage: { type: 'string' },
      table: { type: 'string' },
      name: { type: 'string' },
      credits: { type: 'string', default: '0' },
      plan: { type: 'string', default: 'standard' },
      label: { type: 'string', default: 'first key' },
    },
    strict: true,
  });
}

const name = values.name?.trim() ?? '';
if (!name || name.length > 200) fail('--name is required (1 to 200 characters).');
if (!/^\d{1,15}$/.test(values.credits ?? '')) fail('--credits must be a whole number, 0 or more.');
const credits = Number(values.credits);
if (values.plan !== 'standard' && values.plan !== 'enterprise') fail('--plan is standard or enterprise.');
if (!values.table && !values.stage) fail('Give --stage (the deployed stage) or --table (a table name).');
if (values.stage && !/^[a-z][a-z0-9-]{0,30}$/.test(values.stage))
  fail('--stage is lowercase letters, digits and dashes.');

// The stage's table is named as the stack names it (lib/resource-names.ts); the stores read it on import.
process.env.TABLE_NAME = values.table ?? `project-source-${values.stage}`;
const { issueCredentials, seedOrganization } = await import('../local/seed.ts');
const orgId = await seedOrganization({ name, credits, plan: values.plan });
const issued = await issueCredentials({ orgId, label: values.label });
process.stdout.write(
  `${JSON.stringify({ orgId, keyId: issued.keyId, apiKey: issued.apiKey, sessionToken: issued.sessionToken }, null, 2)}\n`,
);
process.exit(0);
