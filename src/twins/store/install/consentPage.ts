/** The consent page a store owner sees at GET /apps/{app_id}/authorize (store.oauth.authorize-consent). */
import { escapeHtml } from '../storefront/html.ts';
import type { StoreState } from '../storeState.ts';
import type { Scope, TwinApp } from './apps.ts';

const SCOPE_TEXT: Readonly<Record<Scope, string>> = {
  read_products: 'See your products and categories',
  write_products: 'Create, change and delete your products and categories',
};

/**
 * A form that posts back to the same URL: the store (the twin's stand-in for
 * the owner signed in to the admin; `store_id` in the query picks one), the
 * state, and which button was pressed.
 */
export function renderConsentPage(app: TwinApp, stores: readonly StoreState[], state: string | undefined, chosenStoreId: number | undefined): string {
  const options = stores
    .map((store) => {
      const name = store.name[store.mainLanguage] ?? String(store.id);
      const selected = store.id === chosenStoreId ? ' selected' : '';
      return `<option value="${store.id}"${selected}>${escapeHtml(name)} (${store.id})</option>`;
    })
    .join('\n      ');
  const scopes = app.scopes.map((scope) => `<li data-scope="${scope}">${escapeHtml(SCOPE_TEXT[scope])}</li>`).join('\n    ');
  return page(
    `Install ${app.name}`,
    `<h1>Install ${escapeHtml(app.name)}</h1>
  <p>${escapeHtml(app.name)} asks to:</p>
  <ul class="scopes">
    ${scopes}
  </ul>
  <form method="post" action="/apps/${app.id}/authorize">
    <input type="hidden" name="state" value="${escapeHtml(state ?? '')}">
    <label for="store">Store</label>
    <select id="store" name="store_id">
      ${options}
    </select>
    <button type="submit" name="decision" value="approve">Install app</button>
    <button type="submit" name="decision" value="deny">Cancel</button>
  </form>`,
  );
}

/** A page that says why nothing was installed. */
export function renderRefusalPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n  <p>${escapeHtml(message)}</p>`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)} - Store Commerce twin</title>
</head>
<body>
<main>
  ${body}
</main>
</body>
</html>
`;
}
