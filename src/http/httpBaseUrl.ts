import { redactUrl } from './redact.ts';

/**
 * A client's baseUrl option as a URL, or the client's configuration error
 * (`refuse`) naming the client (`who`) and the fix when it is not an absolute
 * http(s) URL.
 */
export function httpBaseUrl(value: string, who: string, fix: string, refuse: (message: string) => Error): URL {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw refuse(`${who}: baseUrl ${JSON.stringify(redactUrl(String(value)))} is not an absolute http(s) URL. Fix: ${fix}.`);
  }
  return url;
}
