import { lineText, type MarketType } from '../markets/catalog';
import { perLocale, type Locale, type LocalizedText } from '../sports';
import type { Sentence } from './narrative';

/**
 * A bet as bettors read it, in every locale: "Arsenal", "Draw", "Over 2.5", "Chelsea +0.25",
 * "Total Corners Over/Under: Over 9.5". es and pt write decimal commas, as the narrative does.
 */
const DRAW: Sentence = { en: 'Draw', es: 'Empate', pt: 'Empate' };
const OR: Sentence = { en: 'or', es: 'o', pt: 'ou' };

const decimal = (text: string, locale: Locale) => (locale === 'en' ? text : text.replace('.', ','));
const name = (t: LocalizedText, locale: Locale) => t[locale] ?? t.en;

export function selectionText(type: MarketType, code: string, line: number | null, home: LocalizedText, away: LocalizedText): Sentence {
  return perLocale((locale) => {
    const caption = type.outcomes.find((o) => o.code === code)?.caption;
    const captionText = caption ? name(caption, locale) : code;
    let base: string;
    switch (type.kind) {
      case 'result3':
      case 'winner2':
        base = code === '1' ? name(home, locale) : code === '2' ? name(away, locale) : DRAW[locale];
        break;
      case 'handicap':
        base = `${name(code === '2' ? away : home, locale)} ${decimal(lineText('handicap', line ?? 0, code), locale)}`;
        break;
      case 'total':
        base = `${captionText} ${decimal(String(line ?? ''), locale)}`;
        break;
      case 'doubleChance': {
        const part = (c: string) => (c === '1' ? name(home, locale) : c === '2' ? name(away, locale) : DRAW[locale]);
        base = `${part(code[0])} ${OR[locale]} ${part(code[1])}`;
        break;
      }
      case 'btts':
        base = `${name(type.name, locale)}: ${captionText}`;
        break;
    }
    const prefixed = type.kind !== 'btts' && (type.stat !== 'score' || type.period === '1H');
    return prefixed ? `${name(type.name, locale)}: ${base}` : base;
  });
}

/** Lower-cased, accent-free, single-spaced: how team names are matched (processed-insights teamNames). */
export function normalizeName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
