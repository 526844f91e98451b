/**
 * One interaction's verdict and its record (what verifyListed.ts found, kept for the reports): made where the
 * interaction is verified, and again, from what a lane sent, in the run that writes the reports (verifyInLanes.ts).
 */
import { join } from 'node:path';
import { reportPath } from '../../src/config/env.ts';
import { slug } from '../../src/recording/cassette.ts';
import type { OutsidePact } from './outsidePacts.ts';
import type { VerificationRecord } from './verifyListed.ts';

export class InteractionRecord implements VerificationRecord {
  readonly annotations: { type: string; description?: string }[] = [];
  readonly attachments: { name: string; body: string; contentType: string }[] = [];
  readonly #dir: string;

  /** Its files go under the run's test output, in a folder per pact and interaction. */
  constructor(run: string, pact: OutsidePact, description: string) {
    this.#dir = reportPath('test-output', run, slug(pact.title), slug(description));
  }

  async attach(name: string, options: { body: string; contentType: string }): Promise<void> {
    this.attachments.push({ name, ...options });
  }

  outputPath(...segments: string[]): string {
    return join(this.#dir, ...segments);
  }

  annotation(type: string): string | undefined {
    return this.annotations.find((a) => a.type === type)?.description;
  }
}

/** One interaction's verdict and what its verification recorded. */
export interface Verdict {
  readonly pact: OutsidePact;
  readonly description: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  /** A failure's message or a skip's reason. */
  readonly text?: string;
  readonly start: number;
  readonly stop: number;
  readonly record: InteractionRecord;
}
