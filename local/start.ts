import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { credentialsBanner } from './credentials-banner.ts';
import { REPO_ROOT } from './lambda.ts';
import { issueCredentials, seedOrganization } from './seed.ts';
import { startLocalStack } from './stack.ts';

/**
 * `npm start`: the whole service on this machine. Data stays in .local-data/ across restarts.
 * Flags: --port N (default 3000), --new-key (mint another session and API key for the local org).
 */
const started = Date.now();
const args = process.argv.slice(2);
const port = Number(args[args.indexOf('--port') + 1] ?? process.env.PORT ?? 3000) || 3000;
const dataDir = join(REPO_ROOT, '.local-data');
mkdirSync(dataDir, { recursive: true });
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
// A promise some request left rejected is logged; it never takes the whole local service down.
process.on('unhandledRejection', (reason) => console.error('unhandled rejection:', reason));

const stack = await startLocalStack({ dataDir, persistDynamo: true, apiPort: port });
// Endpoints (no secrets) for `npm run invoke`, which runs single handlers against this stack.
const { SIGNING_KEY: _secret, ...endpoints } = stack.env;
writeFileSync(join(dataDir, 'endpoints.json'), JSON.stringify(endpoints, null, 2));
const marker = join(dataDir, 'organization.json');
const LOCAL_ORG = 'org_local';

let credentials: { sessionToken: string; apiKey: string } | null = null;
if (!existsSync(marker)) {
  await seedOrganization({ orgId: LOCAL_ORG, name: 'Local organization', credits: 100_000 });
  credentials = await issueCredentials({ orgId: LOCAL_ORG });
  // Only the organization id is recorded: secrets are printed once, never written to disk.
  writeFileSync(marker, JSON.stringify({ orgId: LOCAL_ORG, createdAt: new Date().toISOString() }, null, 2));
} else if (args.includes('--new-key')) {
  credentials = await issueCredentials({ orgId: LOCAL_ORG });
}

const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`\nProject Source API is running at ${stack.apiUrl} (ready in ${seconds} s)`);
console.log(`Data: ${dataDir}`);
if (credentials) {
  console.log(credentialsBanner(stack.apiUrl, credentials));
} else {
  console.log(
    '\nUse the API key printed at first start, or restart with `npm start -- --new-key` for a new one.',
  );
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    void stack.stop().then(() => process.exit(0));
  });
}
