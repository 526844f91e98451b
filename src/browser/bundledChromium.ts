/**
 * The chromium the devDependency @sparticuz/chromium ships inside its npm
 * package (Linux x64, brotli-compressed), unpacked once per install into
 * node_modules/.cache/sparticuz-chromium/<version>/.
 *
 * The package's own executablePath() unpacks into os.tmpdir(), writing
 * /tmp/chromium in place: shared by every user, checkout and version, and a
 * half-written file to anyone who looks too soon. So it runs in a child
 * process whose TMPDIR is a fresh directory beside the cache, renamed into
 * place once complete: workers that start together each unpack (about 2 s,
 * on the first run after npm ci only), the first rename wins, and no one
 * launches a partial binary. The child also keeps the package's import-time
 * changes to process.env (on Lambda-like hosts) out of the test process.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { processEnv } from '../config/env.ts';

const PACKAGE = '@sparticuz/chromium';

export interface BundledChromium {
  readonly executablePath: string;
  /** The NSS libraries shipped beside it, for a system that has none (a slim image); undefined when chromium finds the system's. */
  readonly libraryPath: string | undefined;
}

/** Run by the child, with TMPDIR set: the package's chromium, fonts and GL libraries, then its NSS libraries (al2023/lib). */
const UNPACK = `
const [moduleUrl, bin] = process.argv.slice(1);
const { default: chromium, inflate } = await import(moduleUrl);
await chromium.executablePath(bin);
await inflate(bin + '/al2023.tar.br');
`;

let unpacked: Promise<BundledChromium> | undefined;

/** The bundled chromium, unpacked if it is not yet; throws, naming the fix, when it cannot be. */
export function bundledChromium(): Promise<BundledChromium> {
  unpacked ??= unpackOnce().catch((error: unknown) => {
    unpacked = undefined;
    throw error;
  });
  return unpacked;
}

async function unpackOnce(): Promise<BundledChromium> {
  let moduleUrl: string;
  try {
    moduleUrl = import.meta.resolve(PACKAGE);
  } catch (error) {
    throw new Error(`${PACKAGE} is not installed: run npm ci (it is a devDependency), or set CHROMIUM_PATH to a chromium binary.`, { cause: error });
  }
  const packageDir = resolve(dirname(fileURLToPath(moduleUrl)), '..');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const dir = join(packageDir, '..', '..', '.cache', 'sparticuz-chromium', version);
  const executablePath = join(dir, 'chromium');
  // The directory appears only by the rename of a complete unpacking: if it is there, so is all of it.
  if (!existsSync(executablePath)) {
    let partial: string | undefined;
    try {
      mkdirSync(dirname(dir), { recursive: true });
      partial = mkdtempSync(`${dir}.partial-`);
      await promisify(execFile)(process.execPath, ['--input-type=module', '-e', UNPACK, moduleUrl, join(packageDir, 'bin')], {
        env: { ...processEnv(), TMPDIR: partial },
        timeout: 120_000,
      });
      renameSync(partial, dir);
    } catch (error) {
      // Another process may have renamed its own into place first: then this one's is not needed.
      if (!existsSync(executablePath)) {
        const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
        throw new Error(`${PACKAGE} could not unpack its chromium into ${dir}: ${detail}. Run npm ci again, or set CHROMIUM_PATH to a chromium binary.`, {
          cause: error,
        });
      }
    } finally {
      if (partial) rmSync(partial, { recursive: true, force: true });
    }
  }
  return { executablePath, libraryPath: findsSystemLibraries(executablePath) ? undefined : join(dir, 'al2023', 'lib') };
}

/** Whether the system has every shared library chromium links (ldd says "not found" otherwise); without ldd, assume so. */
function findsSystemLibraries(executablePath: string): boolean {
  const ldd = spawnSync('ldd', [executablePath], { encoding: 'utf8' });
  return ldd.status !== 0 || !ldd.stdout.includes('not found');
}
