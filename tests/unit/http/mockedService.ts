/** What the core's tests and the interceptors' tests share: a service mocked in undici, and a policy that retries its 503s. */
import { MockAgent } from 'undici';
import { RetryPolicy, type RetryableAnswer } from '../../../src/http/RetryPolicy.ts';

export const ORIGIN = 'http://api.example.test';

/** Retries every 503 after 100 ms; network failures by the core's back-off. */
export class Retry503 extends RetryPolicy {
  constructor(maxRetries = 3) {
    super({ maxRetries }, 'TestClient', (message) => new Error(message));
  }
  override decide(answer: RetryableAnswer, retriesSoFar: number) {
    return answer.status === 503 && retriesSoFar < this.maxRetries ? { reason: '503: later', afterMs: 100 } : undefined;
  }
}

/** A MockAgent that lets nothing reach the network. */
export function mocked(): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return agent;
}
