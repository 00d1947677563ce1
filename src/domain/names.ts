/**
 * Deterministic Nigerian names for resolved accounts: the same bank and account number always
 * resolve to the same holder, across runs and machines (FNV-1a over the input, no randomness).
 */
const FIRST = [
  "Adaeze", "Chinedu", "Oluwaseun", "Ngozi", "Emeka", "Funmilayo", "Ibrahim", "Aisha", "Tunde", "Chioma",
  "Babajide", "Halima", "Ikechukwu", "Yetunde", "Musa", "Nkechi", "Olumide", "Zainab", "Obinna", "Folake",
  "Segun", "Amaka", "Usman", "Temitope", "Chukwuemeka", "Hauwa", "Kehinde", "Ifeoma", "Abdullahi", "Bisola",
];
const LAST = [
  "Okafor", "Adeyemi", "Balogun", "Eze", "Okonkwo", "Abubakar", "Olawale", "Nwosu", "Adebayo", "Mohammed",
  "Ogunleye", "Chukwu", "Bello", "Afolabi", "Nnamdi", "Ibrahim", "Oyelaran", "Uche", "Danjuma", "Akinola",
  "Obi", "Lawal", "Ogbonna", "Suleiman", "Fashola", "Okeke", "Yusuf", "Adeleke", "Onyekachi", "Aliyu",
];

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** "SURNAME FIRSTNAME MIDDLENAME" in capitals, the form NIP name enquiry returns. */
export function accountHolderName(bankCode: string, accountNumber: string): string {
  const h = fnv1a(`${bankCode}:${accountNumber}`);
  const last = LAST[h % LAST.length]!;
  const first = FIRST[Math.floor(h / LAST.length) % FIRST.length]!;
  const middle = FIRST[Math.floor(h / (LAST.length * FIRST.length)) % FIRST.length]!;
  return `${last} ${first} ${middle === first ? "" : middle}`.trim().toUpperCase();
}
