/**
 * What `npm start` prints once for new credentials: the lines to paste are `export` lines whose values
 * are the bare secrets, as the README's walkthrough uses them (`-H "Cookie: service_session=$SESSION"`),
 * so pasting never doubles the cookie's name.
 */
export function credentialsBanner(apiUrl: string, credentials: { apiKey: string; sessionToken: string }) {
  return [
    '\nOrganization org_local has 100000 credits. These secrets are shown once; copy them now:',
    `  API key (all scopes):            ${credentials.apiKey}`,
    `  Session (cookie service_session): ${credentials.sessionToken}`,
    '\nTry it (the README walkthrough uses these variables):',
    `  export API=${apiUrl} KEY=${credentials.apiKey} SESSION=${credentials.sessionToken}`,
    `  curl -s -X POST $API/api/open/v1/projects -H "Authorization: Bearer $KEY" -H 'content-type: application/json' -d '{"name":"Gymnasium"}'`,
    '  curl -s $API/api/open-api/keys -H "Cookie: service_session=$SESSION"',
  ].join('\n');
}
