import type { StoreTwinBreak } from '../twinBreaks.ts';

/**
 * The storefront script object (spec, Storefront script event): defines
 * `window.LS.registerOnChangeVariant(callback)`. When the shopper picks
 * another variant in `#variant-picker`, the chosen variant's form container
 * is shown and every registered callback is called with one argument, that
 * variant's object from the page's `#ls-variants` JSON.
 * Plain ES5 in a string: it runs in the shopper's browser, not in Node.
 * One function: its body is the script the browser runs, one template string, read as the ES5 it is.
 */
export function lsScript(twinBreak: StoreTwinBreak | undefined): string {
  const call = twinBreak === 'storefront-callback-without-variant' ? 'callback();' : 'callback(copyOf(variant));';
  return `(function () {
  'use strict';
  var variants = JSON.parse(document.getElementById('ls-variants').textContent);
  var picker = document.getElementById('variant-picker');
  var callbacks = [];
  var chosen = picker ? picker.value : null;

  function findVariant(id) {
    for (var i = 0; i < variants.length; i++) if (String(variants[i].id) === id) return variants[i];
    return null;
  }
  function showForm(id) {
    var containers = document.querySelectorAll('.js-product-form');
    for (var i = 0; i < containers.length; i++) containers[i].hidden = containers[i].getAttribute('data-variant-id') !== id;
  }
  // A copy per callback: one script changing its argument cannot change what the next one sees.
  function copyOf(variant) {
    return JSON.parse(JSON.stringify(variant));
  }

  window.LS = window.LS || {};
  window.LS.registerOnChangeVariant = function (callback) {
    if (typeof callback !== 'function') throw new TypeError('LS.registerOnChangeVariant(callback): callback must be a function');
    callbacks.push(callback);
  };

  if (!picker) return;
  // A reload may restore the picker's last choice: show that variant's form.
  showForm(chosen);
  picker.addEventListener('change', function () {
    var variant = findVariant(picker.value);
    if (!variant || picker.value === chosen) return;
    chosen = picker.value;
    showForm(chosen);
    callbacks.slice().forEach(function (callback) {
      // One failing callback must not keep the others from running; its error still reaches the console.
      try {
        ${call}
      } catch (error) {
        setTimeout(function () { throw error; });
      }
    });
  });
})();`;
}
