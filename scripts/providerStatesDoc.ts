/**
 * `npm run docs:states`: writes the vocabulary tables of docs/provider-states.md
 * from contracts/<api>/providerStates.ts and contracts/verification/messageStates.ts. Run it after adding or changing a state.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { STORE_VOCABULARY } from '../contracts/store/providerStates.ts';
import { MEDIA_VOCABULARY } from '../contracts/media/providerStates.ts';
import { MESSAGE_VOCABULARY } from '../contracts/verification/messageStates.ts';
import { renderVocabulary, withVocabularyTables } from '../contracts/verification/vocabularyDoc.ts';

export const PROVIDER_STATES_DOC = 'docs/provider-states.md';

export function vocabularyTables(): Record<string, string> {
  return { store: renderVocabulary(STORE_VOCABULARY), media: renderVocabulary(MEDIA_VOCABULARY), 'store-messages': renderVocabulary(MESSAGE_VOCABULARY) };
}

if (import.meta.main) {
  const page = readFileSync(PROVIDER_STATES_DOC, 'utf8');
  writeFileSync(PROVIDER_STATES_DOC, withVocabularyTables(page, vocabularyTables()));
  console.log(`docs:states: wrote the store, store message and media tables of ${PROVIDER_STATES_DOC}`);
}
