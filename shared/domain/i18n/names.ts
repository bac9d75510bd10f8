import { hashInt } from '../providers/ids';
import { perLocale, type LocalizedText } from '../sports';

/**
 * Names in en, es and pt. Countries come from ICU (`Intl.DisplayNames`, full ICU in Node 20);
 * regions ICU does not know (England, Scotland) and competitions come from a maintained
 * dictionary; anything unknown falls back to its English name.
 */

/** Region codes ICU has no name for. */
const CUSTOM_REGIONS: Record<string, LocalizedText> = {
  'GB-ENG': { en: 'England', es: 'Inglaterra', pt: 'Inglaterra' },
  'GB-SCT': { en: 'Scotland', es: 'Escocia', pt: 'Escócia' },
  'GB-WLS': { en: 'Wales', es: 'Gales', pt: 'País de Gales' },
  'GB-NIR': { en: 'Northern Ireland', es: 'Irlanda del Norte', pt: 'Irlanda do Norte' },
};

/** Our short codes for supranational regions, read through their UN M49 codes. */
const M49: Record<string, string> = { INT: '001', EU: '150' };

/**
 * Region ids are part of the public contract (integers): a maintained table keeps the usual
 * ones small and stable; any other code gets a derived id that never changes either.
 */
const REGION_IDS: Record<string, number> = {
  INT: 1,
  EU: 2,
  'GB-ENG': 3,
  'GB-SCT': 4,
  ES: 5,
  IT: 6,
  DE: 7,
  FR: 8,
  PT: 9,
  NL: 10,
  BR: 11,
  AR: 12,
  US: 13,
  MX: 14,
  CA: 15,
  JP: 16,
  KR: 17,
  RU: 18,
  SE: 19,
  FI: 20,
  PL: 21,
  CN: 22,
  AU: 23,
  UY: 24,
  TR: 25,
  GR: 26,
  BE: 27,
  AT: 28,
  CH: 29,
  DK: 30,
  NO: 31,
  CZ: 32,
  CL: 33,
  CO: 34,
  GB: 35,
  IE: 36,
  SA: 37,
  IN: 38,
  HR: 39,
  RS: 40,
  'GB-WLS': 41,
  'GB-NIR': 42,
  HU: 43,
  SI: 44,
  SK: 45,
  UA: 46,
  RO: 47,
  QA: 48,
  AE: 49,
  EG: 50,
};

export function regionId(code: string): number {
  return REGION_IDS[code] ?? hashInt(`region|${code}`, 1000, 1_000_000);
}

const displayNames = new Map<string, Intl.DisplayNames>();
function icuRegion(locale: string, code: string): string | undefined {
  let dn = displayNames.get(locale);
  if (!dn) {
    dn = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
    displayNames.set(locale, dn);
  }
  try {
    return dn.of(code) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Names never change while a process runs: each is computed once (ICU lookups are not free). */
function memo<T>(fn: (key: string) => T): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    let v = cache.get(key);
    if (v === undefined) {
      v = fn(key);
      cache.set(key, v);
    }
    return v;
  };
}

export const regionName = memo(regionNameUncached);

function regionNameUncached(code: string): LocalizedText {
  const custom = CUSTOM_REGIONS[code];
  if (custom) return custom;
  const icuCode = M49[code] ?? code;
  const en = icuRegion('en', icuCode);
  if (!en) return { en: code };
  return { en, es: icuRegion('es', icuCode) ?? en, pt: icuRegion('pt', icuCode) ?? en };
}

/** Competition names that differ by language; the rest are proper names kept as they are. */
const COMPETITIONS: Record<string, { es: string; pt: string }> = {
  'UEFA Champions League': { es: 'Liga de Campeones de la UEFA', pt: 'Liga dos Campeões da UEFA' },
  'UEFA Europa League': { es: 'Liga Europa de la UEFA', pt: 'Liga Europa da UEFA' },
  'FIFA World Cup': { es: 'Copa Mundial de la FIFA', pt: 'Copa do Mundo da FIFA' },
  'World Cup Qualifiers': { es: 'Eliminatorias del Mundial', pt: 'Eliminatórias da Copa do Mundo' },
  'Copa Libertadores': { es: 'Copa Libertadores', pt: 'Copa Libertadores' },
  'Liga Profesional': { es: 'Liga Profesional', pt: 'Liga Profissional' },
  'Brasileirão Série A': { es: 'Brasileirão Serie A', pt: 'Brasileirão Série A' },
  'Primeira Liga': { es: 'Primeira Liga', pt: 'Primeira Liga' },
  'EHF Champions League': { es: 'Liga de Campeones de la EHF', pt: 'Liga dos Campeões da EHF' },
  'CEV Champions League': { es: 'Liga de Campeones de la CEV', pt: 'Liga dos Campeões da CEV' },
  'NCAA Football': { es: 'Fútbol Americano NCAA', pt: 'Futebol Americano NCAA' },
  'NCAA Basketball': { es: 'Baloncesto NCAA', pt: 'Basquete NCAA' },
  'ATP Finals': { es: 'Finales ATP', pt: 'Finais da ATP' },
  'WTA Finals': { es: 'Finales WTA', pt: 'Finais da WTA' },
  'Davis Cup Finals': { es: 'Finales de la Copa Davis', pt: 'Finais da Copa Davis' },
  'ATP Challenger Montevideo': { es: 'ATP Challenger de Montevideo', pt: 'ATP Challenger de Montevidéu' },
  'WTA 125 Buenos Aires': { es: 'WTA 125 de Buenos Aires', pt: 'WTA 125 de Buenos Aires' },
  'Mexican Pacific League': { es: 'Liga Mexicana del Pacífico', pt: 'Liga Mexicana do Pacífico' },
  'Liga MX': { es: 'Liga MX', pt: 'Liga MX' },
  Superliga: { es: 'Superliga', pt: 'Superliga' },
};

export const competitionName = memo((en: string): LocalizedText => {
  const known = COMPETITIONS[en];
  return known ? { en, ...known } : { en };
});

/** English country name -> ISO code, so national teams get their names translated. */
let countryCodes: Map<string, string> | undefined;
export function countryCode(name: string): string | undefined {
  if (!countryCodes) {
    countryCodes = new Map();
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        const en = icuRegion('en', code);
        if (en && en !== code) countryCodes.set(en.toLowerCase(), code);
      }
    }
  }
  return countryCodes.get(name.toLowerCase());
}

/** Club names are proper names (same in every locale); national teams are translated. */
export const teamName = memo((name: string): LocalizedText => {
  const code = countryCode(name);
  return code ? regionName(code) : { en: name };
});

/** Every locale filled (English where no translation exists): what documents store. */
export function complete(text: LocalizedText): Required<LocalizedText> {
  return perLocale((l) => text[l] ?? text.en);
}
