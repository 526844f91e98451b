/** Which chromium the harness launches, in order: CHROMIUM_PATH, PATH, the bundled one (Linux x64), Playwright's own. */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { chooseChromium, chromiumLaunchOptions, type ChromiumHost } from '../../../src/browser/chromium.ts';

/** A host where only `executables` are executable files. */
function host(env: NodeJS.ProcessEnv, { platform = 'linux', arch = 'x64', executables = [] as string[] } = {}): ChromiumHost {
  return { env, platform: platform as NodeJS.Platform, arch, isExecutable: (path) => executables.includes(path) };
}

test.describe('the resolution order', () => {
  test('1. CHROMIUM_PATH comes first, before a chromium on PATH', () => {
    const choice = chooseChromium(
      host({ CHROMIUM_PATH: '/opt/chrome/chrome', PATH: '/usr/bin' }, { executables: ['/opt/chrome/chrome', '/usr/bin/chromium'] }),
    );
    expect(choice).toEqual({ source: 'CHROMIUM_PATH', executablePath: '/opt/chrome/chrome' });
  });

  test('a CHROMIUM_PATH that is not executable is an error naming it, not a silent fallback', () => {
    const there = host({ CHROMIUM_PATH: '/nowhere/chromium', PATH: '/usr/bin' }, { executables: ['/usr/bin/chromium'] });
    expect(() => chooseChromium(there)).toThrow(
      /CHROMIUM_PATH is "\/nowhere\/chromium", which is not an executable file: point it at a chromium binary, or unset it/,
    );
  });

  test('a blank CHROMIUM_PATH counts as unset', () => {
    expect(chooseChromium(host({ CHROMIUM_PATH: '  ', PATH: '/usr/bin' }, { executables: ['/usr/bin/chromium'] }))).toEqual({
      source: 'PATH',
      executablePath: '/usr/bin/chromium',
    });
  });

  test('2. a system chromium: the first directory of PATH holding chromium or chromium-browser, executable', () => {
    const executables = ['/usr/lib/chromium-browser', '/usr/local/bin/chromium-browser', '/usr/bin/chromium'];
    const choice = chooseChromium(host({ PATH: '/home/me/bin:/usr/local/bin:/usr/bin' }, { executables }));
    expect(choice).toEqual({ source: 'PATH', executablePath: '/usr/local/bin/chromium-browser' });
  });

  test('on Windows, PATH is split on ";" and the names end in .exe', () => {
    const choice = chooseChromium(host({ PATH: 'C:\\tools;D:\\chromium' }, { platform: 'win32', executables: ['D:\\chromium\\chromium.exe'] }));
    expect(choice).toEqual({ source: 'PATH', executablePath: 'D:\\chromium\\chromium.exe' });
  });

  test('3. on Linux x64 without either, the chromium @sparticuz/chromium ships', () => {
    expect(chooseChromium(host({ PATH: '/usr/bin' }))).toEqual({ source: 'bundled' });
    expect(chooseChromium(host({}))).toEqual({ source: 'bundled' });
  });

  test("4. on macOS, Windows and Linux arm64, Playwright's own browser", () => {
    for (const [platform, arch] of [
      ['darwin', 'arm64'],
      ['darwin', 'x64'],
      ['win32', 'x64'],
      ['linux', 'arm64'],
    ]) {
      expect(chooseChromium(host({ PATH: '/usr/bin' }, { platform, arch })), `${platform}-${arch}`).toEqual({ source: 'playwright' });
    }
  });

  test('elsewhere, an error that names the fix', () => {
    expect(() => chooseChromium(host({ PATH: '/usr/local/bin' }, { platform: 'freebsd' }))).toThrow(
      /No chromium for freebsd-x64: .* Set CHROMIUM_PATH to a chromium binary, or put chromium on PATH\./,
    );
    // CHROMIUM_PATH works there too.
    expect(chooseChromium(host({ CHROMIUM_PATH: '/usr/local/bin/chrome' }, { platform: 'freebsd', executables: ['/usr/local/bin/chrome'] }))).toEqual({
      source: 'CHROMIUM_PATH',
      executablePath: '/usr/local/bin/chrome',
    });
  });
});

test.describe('the launch options', () => {
  test('a found binary is launched by its path, headless, with the container flags', async () => {
    const options = await chromiumLaunchOptions(host({ PATH: '/usr/bin' }, { executables: ['/usr/bin/chromium'] }));
    expect(options.executablePath).toBe('/usr/bin/chromium');
    expect(options.args).toEqual(expect.arrayContaining(['--headless', '--no-sandbox', '--disable-gpu']));
  });

  test("Playwright's own browser has no executablePath: Playwright finds it", async () => {
    const options = await chromiumLaunchOptions(host({}, { platform: 'darwin', arch: 'arm64' }));
    expect(options).not.toHaveProperty('executablePath');
    expect(options.args).toContain('--no-sandbox');
  });

  test('the error of the choice is the error of the launch options', async () => {
    await expect(chromiumLaunchOptions(host({ CHROMIUM_PATH: '/nowhere' }))).rejects.toThrow(/CHROMIUM_PATH is "\/nowhere"/);
  });
});
