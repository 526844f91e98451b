/**
 * A team's app installed on a store twin through its install flow, as the partner panel and a store owner would:
 * registered with its scopes (control API), approved by the store's owner, its code exchanged at the token endpoint.
 * The token is what the team's integration holds, and so what its sandbox entry in STORE_TEAM_SANDBOXES names.
 */

async function call<T>(twinUrl: string, path: string, body: unknown): Promise<T> {
  const answer = await fetch(`${twinUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await answer.json()) as T;
  if (!answer.ok) throw new Error(`installing an app on ${twinUrl}: POST ${path} answered ${answer.status} ${JSON.stringify(json)}`);
  return json;
}

/** Installs a new app with `scopes` on store `storeId` of the twin at `twinUrl`; resolves to its access token. */
export async function installedApp(twinUrl: string, storeId: number, scopes: readonly string[]): Promise<string> {
  // Nothing is redirected to: the owner's approval is the control API's, without a browser.
  const app = await call<{ appId: number; clientSecret: string }>(twinUrl, '/__twin/apps', { redirectUrl: 'http://127.0.0.1:9/callback', scopes });
  const { code } = await call<{ code: string }>(twinUrl, `/__twin/apps/${app.appId}/approve`, { storeId });
  const token = await call<{ access_token: string }>(twinUrl, '/apps/authorize/token', {
    client_id: app.appId,
    client_secret: app.clientSecret,
    grant_type: 'authorization_code',
    code,
  });
  return token.access_token;
}
