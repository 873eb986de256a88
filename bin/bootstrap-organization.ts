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
import { fail, operatorOptions, targetTable } from './operator-options.ts';

const values = operatorOptions({
  name: { type: 'string' },
  credits: { type: 'string', default: '0' },
  plan: { type: 'string', default: 'standard' },
  label: { type: 'string', default: 'first key' },
});
const name = values.name?.trim() ?? '';
if (!name || name.length > 200) fail('--name is required (1 to 200 characters).');
if (!/^\d{1,15}$/.test(values.credits ?? '')) fail('--credits must be a whole number, 0 or more.');
const credits = Number(values.credits);
if (values.plan !== 'standard' && values.plan !== 'enterprise') fail('--plan is standard or enterprise.');
// The stores read the table's name on import.
process.env.TABLE_NAME = targetTable(values);
const { issueCredentials, seedOrganization } = await import('../local/seed.ts');
const orgId = await seedOrganization({ name, credits, plan: values.plan });
const issued = await issueCredentials({ orgId, label: values.label });
process.stdout.write(
  `${JSON.stringify({ orgId, keyId: issued.keyId, apiKey: issued.apiKey, sessionToken: issued.sessionToken }, null, 2)}\n`,
);
process.exit(0);
