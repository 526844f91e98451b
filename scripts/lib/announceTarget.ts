/**
 * The scripts' common start: read the configuration once and say what the run
 * checks against, or print which variable to fix (undefined: exit 2).
 */
import { ConfigError } from '../../src/config/ConfigError.ts';
import { describeConfig, harnessConfig, type HarnessConfig } from '../../src/config/harnessConfig.ts';

export function announceTarget(what: string): HarnessConfig | undefined {
  let config: HarnessConfig;
  try {
    config = harnessConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return undefined;
    }
    throw error;
  }
  console.log(`${what} against`);
  for (const [key, value] of Object.entries(describeConfig(config))) console.log(`  ${key}: ${value}`);
  return config;
}
