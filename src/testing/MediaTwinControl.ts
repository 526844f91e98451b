/** The media twin's control API (/__twin): reset to the seed, move the virtual clock. */
import { TwinControl } from './TwinControl.ts';

export class MediaTwinControl extends TwinControl {
  constructor(twinUrl: string) {
    super(twinUrl, 'Media twin');
  }

  reset(): Promise<unknown> {
    return this.call('POST', '/reset');
  }

  clock(): Promise<{ now: number; mode: string }> {
    return this.call('GET', '/clock');
  }

  advanceClock(advanceMs: number): Promise<unknown> {
    return this.call('POST', '/clock', { advanceMs });
  }
}
