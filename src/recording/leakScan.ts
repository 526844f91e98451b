/**
 * The leak scan: which files under the given directories hold a secret
 * (raw, URL-encoded or JSON-escaped). It names files, never the secret.
 * Bytes are searched for each form's UTF-8 bytes: no file is decoded, and a
 * secret outside ASCII is found as it is written.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writtenForms } from '../http/redact.ts';
import { MIN_RECORDED_SECRET } from './redactRecording.ts';

/** Each secret a recording is redacted of, as the bytes of each form it may be written in (each once). */
export function secretForms(secrets: readonly string[]): Buffer[] {
  const forms = secrets.filter((s) => s.length >= MIN_RECORDED_SECRET).flatMap(writtenForms);
  return [...new Set(forms)].map((form) => Buffer.from(form, 'utf8'));
}

export function leakScan(dirs: readonly string[], secrets: readonly string[]): string[] {
  const forms = secretForms(secrets);
  if (forms.length === 0) return [];
  const found: string[] = [];
  const walk = (path: string) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if (stat.size < 64 * 1024 * 1024) {
      const bytes = readFileSync(path);
      if (forms.some((form) => bytes.includes(form))) found.push(path);
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(dir);
  return found;
}
