/** How the documentation judges one value: accepted, refused (a documented error), or not settled (either answer is documented). */
export type Verdict = 'accepted' | 'refused' | 'unclear';
