import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONSUMERS } from '../functions/shared/consumers.ts';
import { FALLBACK_HANDLER, ROUTES, STREAM_ROUTE } from '../functions/shared/routes.ts';
import { STATE_MACHINES } from '../functions/shared/state-machines.ts';
import { REPO_ROOT } from './lambda.ts';

/**
 * `npm run invoke -- <function> <event-file>`: runs one handler, in this process, against the
 * running local stack (`npm start`). <function> is a route id (createProject), a handler file name
 * (create-project) or a state-machine task (set-up-project-resources). `${NAME}` in the event file
 * is replaced by the environment variable NAME (API_KEY, SESSION_TOKEN, PROJECT_ID, ...).
 */
const [name, eventFile] = process.argv.slice(2);
if (!name || !eventFile) {
  console.error(
    'usage: npm run invoke -- <function> <event-file>   e.g. npm run invoke -- createProject events/http/create-project.json',
  );
  process.exit(2);
}

const candidates = [
  ...ROUTES.map((route) => ({ id: route.id, handler: route.handler })),
  { id: STREAM_ROUTE.id, handler: STREAM_ROUTE.handler },
  { id: 'routeNotFound', handler: FALLBACK_HANDLER },
  ...CONSUMERS.map((consumer) => ({ id: consumer.id, handler: consumer.handler })),
  ...STATE_MACHINES.flatMap((machine) =>
    Object.entries(machine.tasks).map(([id, task]) => ({ id, handler: task.handler })),
  ),
];
const target = candidates.find(
  (candidate) =>
    candidate.id === name || candidate.handler.endsWith(`/${name}.ts`) || candidate.handler === name,
);
if (!target) {
  console.error(
    `Unknown function "${name}". Known: ${candidates.map((candidate) => candidate.id).join(', ')}`,
  );
  process.exit(2);
}

let endpoints: Record<string, string>;
try {
  endpoints = JSON.parse(readFileSync(join(REPO_ROOT, '.local-data', 'endpoints.json'), 'utf8'));
} catch {
  console.error('The local stack is not running: start it with `npm start` in another terminal.');
  process.exit(1);
}
Object.assign(process.env, endpoints, { POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'INFO' });
process.env.SIGNING_KEY ??= 'invoke-only-key-cursors-from-the-server-will-not-decode';

const text = readFileSync(eventFile, 'utf8').replace(/\$\{([A-Z_]+)\}/g, (_match, variable: string) => {
  const value = process.env[variable];
  if (value === undefined) {
    console.error(`The event uses \${${variable}}: set ${variable} in the environment.`);
    process.exit(2);
  }
  return value;
});

const { installStreamingShim, createResponseStream } = await import('./streaming-shim.ts');
installStreamingShim();
const { invokeHandler, lambdaContext, loadHandler, functionNameOf } = await import('./lambda.ts');
if (target.handler === STREAM_ROUTE.handler) {
  const { ServerResponse, IncomingMessage } = await import('node:http');
  const { Socket } = await import('node:net');
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  response.write = ((chunk: Buffer | string) => process.stdout.write(chunk)) as typeof response.write;
  const handler = (await loadHandler(target.handler)) as unknown as (
    e: unknown,
    s: unknown,
    c: unknown,
  ) => Promise<void>;
  await handler(
    JSON.parse(text),
    createResponseStream(response),
    lambdaContext(functionNameOf(target.handler)),
  );
} else {
  const result = await invokeHandler(target.handler, JSON.parse(text));
  console.log(JSON.stringify(result, null, 2));
}
