/** Lower case, accents dropped: how the twins' searches and text filters compare, so `lampara` finds "Lámpara". */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}
