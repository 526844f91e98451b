/** The reading of a built report's page that reportRendering.test.ts holds every red and skipped test to (reportPageText.ts). */
import { expect, test } from '../../../src/testing/harnessTest.ts';
import { htmlText, markupShown } from './reportPageText.ts';

test('markup a reader would have to decode is found wherever the page shows it', () => {
  const problems = markupShown({
    name: 't',
    status: 'failed',
    // Markdown's `<!-- x -->` with HTML off, as Allure renders a description: the comment shown as text.
    descriptionHtml: '<p><strong>rule</strong>: text.</p>\n<p>&lt;!-- consumers affected --&gt;</p>\n<p>`npm run x`</p>',
    error: { message: 'Error: [rule] answered &lt;p&gt;\n```\nbody\n```' },
    steps: [{ type: 'step', name: 'a \\* b', steps: [{ type: 'attachment', link: { name: 'HTTP 1: <p class="x">hi' } }] }],
  });
  expect(problems.map((p) => p.replace(/ as text: .*/s, ''))).toEqual([
    't: description shows an HTML comment',
    't: description shows a backtick',
    't: status message shows an HTML entity',
    't: status message shows a code fence',
    't: step shows a Markdown escape',
    't: attachment title shows an HTML tag',
  ]);
});

test('rendered Markdown and plain messages with nothing to decode pass', () => {
  expect(htmlText('<h4>Consumers affected</h4><ul><li>“a” &amp; b: 1 &lt; 2</li></ul>')).toBe(' Consumers affected   “a” & b: 1 < 2  ');
  expect(
    markupShown({
      name: 't',
      status: 'failed',
      descriptionHtml: '<h4>Consumers affected</h4><ul><li><strong>store-integration</strong>: “a” 1 &lt; 2</li></ul>',
      error: { message: 'Error: [store.x] GET /v1/1/products answered 429, expected 422\n\nExpected: 422\nReceived: 429; set URL=<a product page>' },
      steps: [{ type: 'attachment', link: { name: 'HTTP 1: GET /v1/1/products → 429' } }],
    }),
  ).toEqual([]);
});
