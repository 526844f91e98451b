import type { Product, Variant } from '../records.ts';
import type { StoreState } from '../storeState.ts';
import { escapeHtml, jsonForScript } from './html.ts';
import { lsScript } from './lsScript.ts';
import { formContainerId, storefrontVariant } from './storefrontVariant.ts';

/** A variant as the shopper picks it: its values in the main language, else its position. */
function variantLabel(store: StoreState, variant: Variant): string {
  const values = variant.values.map((value) => value[store.mainLanguage] ?? '').filter((text) => text.trim() !== '');
  return values.length > 0 ? values.join(' / ') : `Variant ${variant.position}`;
}

function priceText(variant: Variant): string {
  return variant.price === null ? 'Ask for the price' : `$ ${variant.price}`;
}

/**
 * One container per variant (`#product_form_<id>`, the selector of
 * variant.element) holding that variant's form; only the chosen one is shown.
 * The twin has no cart, so the button only stands where a real one would be.
 */
function variantForm(store: StoreState, variant: Variant, chosen: boolean): string {
  const id = escapeHtml(String(variant.id));
  return `<div id="${escapeHtml(formContainerId(variant))}" class="js-product-form" data-variant-id="${id}"${chosen ? '' : ' hidden'}>
  <form class="js-product-form-variant" data-variant-id="${id}" aria-label="${escapeHtml(variantLabel(store, variant))}">
    <input type="hidden" name="variant_id" value="${id}">
    <p class="js-price-display">${escapeHtml(priceText(variant))}</p>
    <button type="button" class="js-addtocart">Add to cart</button>
  </form>
</div>`;
}

/**
 * store.storefront.on-change-variant, store.storefront.variant-element: the
 * product page of the twin's storefront, built from the same state the API
 * answers, with a variant picker, a form container per variant and the LS
 * script object.
 */
export function renderProductPage(store: StoreState, product: Product): string {
  const name = product.name[store.mainLanguage] ?? '';
  const storeName = store.name[store.mainLanguage] ?? String(store.id);
  const [first] = product.variants;
  const options = product.variants
    .map(
      (variant) =>
        `<option value="${escapeHtml(String(variant.id))}"${variant === first ? ' selected' : ''}>${escapeHtml(variantLabel(store, variant))}</option>`,
    )
    .join('\n    ');
  return `<!doctype html>
<html lang="${escapeHtml(store.mainLanguage)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(name)} - ${escapeHtml(storeName)}</title>
</head>
<body>
<main class="js-product-container" data-store-id="${store.id}" data-product-id="${product.id}">
  <h1 class="js-product-name">${escapeHtml(name)}</h1>
  <label for="variant-picker">Variant</label>
  <select id="variant-picker" class="js-variation-option" name="variant">
    ${options}
  </select>
${product.variants.map((variant) => variantForm(store, variant, variant === first)).join('\n')}
</main>
<script type="application/json" id="ls-variants">${jsonForScript(product.variants.map((variant) => storefrontVariant(store, variant)))}</script>
<script>
${lsScript(store.twinBreak)}
</script>
</body>
</html>
`;
}

/** A page for a request the storefront cannot serve: what went wrong and what it serves instead. */
export function renderMessagePage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
</body>
</html>
`;
}
