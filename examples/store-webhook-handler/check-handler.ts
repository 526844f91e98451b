/**
 * `npm run webhooks:check`: serves the handler and runs the harness's conformance check against it
 * (`npx api-contract-harness webhooks check --to <url> --secret <secret>`), exiting with its code.
 * `--insecure` serves a handler that skips the signature, which the check must fail.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { WebhookHandler } from './src/webhookHandler.ts';

const SECRET = 'team-webhook-secret';
const insecure = process.argv.includes('--insecure');
const server = await new WebhookHandler({ secret: SECRET, verifySignatures: !insecure }).listen();
const check = spawn('npx', ['--no-install', 'api-contract-harness', 'webhooks', 'check', '--to', server.url, '--secret', SECRET], { stdio: 'inherit' });
const [code] = (await once(check, 'exit')) as [number | null];
await server.close();
process.exit(code ?? 1);
