import { inject } from 'vitest';

// Test files talk to the same emulators as the server (to seed organizations and inspect state).
Object.assign(process.env, inject('localEnv'), { POWERTOOLS_LOG_LEVEL: 'ERROR' });
