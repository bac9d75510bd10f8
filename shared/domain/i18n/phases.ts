import type { Locale, LocalizedText } from '../sports';

/**
 * Phase sysnames the feed stores (LiveEventData.phaseSysname, live stats, completed stats.phase)
 * and their captions: short (`phaseCaption`) and long (`phaseCaptionLong`) in every locale.
 * The API localizes at render time; ingestion stores the sysname and the English captions.
 */
interface PhaseText {
  short: LocalizedText;
  long: LocalizedText;
}

const t = (en: string, es: string, pt: string): LocalizedText => ({ en, es, pt });

const FIXED: Record<string, PhaseText> = {
  NOT_STARTED: { short: t('NS', 'NI', 'NI'), long: t('Not started', 'No iniciado', 'Não iniciado') },
  FIRST_HALF: { short: t('1H', '1T', '1T'), long: t('First half', 'Primer tiempo', 'Primeiro tempo') },
  HALF_TIME: { short: t('HT', 'DES', 'INT'), long: t('Half-time', 'Descanso', 'Intervalo') },
  SECOND_HALF: { short: t('2H', '2T', '2T'), long: t('Second half', 'Segundo tiempo', 'Segundo tempo') },
  FIRST_QUARTER: { short: t('Q1', 'C1', 'Q1'), long: t('First quarter', 'Primer cuarto', 'Primeiro quarto') },
  SECOND_QUARTER: { short: t('Q2', 'C2', 'Q2'), long: t('Second quarter', 'Segundo cuarto', 'Segundo quarto') },
  THIRD_QUARTER: { short: t('Q3', 'C3', 'Q3'), long: t('Third quarter', 'Tercer cuarto', 'Terceiro quarto') },
  FOURTH_QUARTER: { short: t('Q4', 'C4', 'Q4'), long: t('Fourth quarter', 'Cuarto cuarto', 'Quarto quarto') },
  FIRST_PERIOD: { short: t('P1', 'P1', 'P1'), long: t('First period', 'Primer periodo', 'Primeiro período') },
  SECOND_PERIOD: { short: t('P2', 'P2', 'P2'), long: t('Second period', 'Segundo periodo', 'Segundo período') },
  THIRD_PERIOD: { short: t('P3', 'P3', 'P3'), long: t('Third period', 'Tercer periodo', 'Terceiro período') },
  BREAK: { short: t('BRK', 'PAU', 'PAU'), long: t('Break', 'Pausa', 'Pausa') },
  OVERTIME: { short: t('OT', 'PR', 'PR'), long: t('Overtime', 'Prórroga', 'Prorrogação') },
  SHOOTOUT: { short: t('SO', 'SO', 'SO'), long: t('Shootout', 'Tanda de penaltis', 'Disputa de pênaltis') },
  FULL_TIME: { short: t('FT', 'FIN', 'FIM'), long: t('Full time', 'Final', 'Fim de jogo') },
  AFTER_OVERTIME: { short: t('AOT', 'FPR', 'APR'), long: t('After overtime', 'Final tras prórroga', 'Após prorrogação') },
  AFTER_SHOOTOUT: { short: t('ASO', 'FSO', 'APE'), long: t('After shootout', 'Final tras penaltis', 'Após pênaltis') },
  AFTER_EXTRA_INNINGS: { short: t('F/EI', 'F/EI', 'F/EI'), long: t('Final after extra innings', 'Final tras entradas extra', 'Final após entradas extras') },
  IN_PROGRESS: { short: t('LIVE', 'VIVO', 'AO VIVO'), long: t('In progress', 'En juego', 'Em andamento') },
  POSTPONED: { short: t('PPD', 'APL', 'ADI'), long: t('Postponed', 'Aplazado', 'Adiado') },
  ABANDONED: { short: t('ABD', 'SUS', 'ABD'), long: t('Abandoned', 'Suspendido', 'Abandonado') },
  CANCELLED: { short: t('CAN', 'CAN', 'CAN'), long: t('Cancelled', 'Cancelado', 'Cancelado') },
};

const ORDINAL_EN = ['', '1st', '2nd', '3rd'];
const ordinalEn = (n: number) => ORDINAL_EN[n] ?? `${n}th`;

/** SET_<n>, SET_BREAK_<n>, INNING_<n>_TOP / INNING_<n>_BOTTOM are numbered, built here. */
function numbered(sysname: string): PhaseText | undefined {
  let m = /^SET_(\d+)$/.exec(sysname);
  if (m) {
    const n = Number(m[1]);
    return { short: t(`S${n}`, `S${n}`, `S${n}`), long: t(`${ordinalEn(n)} set`, `Set ${n}`, `${n}º set`) };
  }
  m = /^SET_BREAK_(\d+)$/.exec(sysname);
  if (m) {
    const n = Number(m[1]);
    return { short: t('BRK', 'PAU', 'PAU'), long: t(`Break after set ${n}`, `Pausa tras el set ${n}`, `Pausa após o ${n}º set`) };
  }
  m = /^INNING_(\d+)_(TOP|BOTTOM)$/.exec(sysname);
  if (m) {
    const n = Number(m[1]);
    const top = m[2] === 'TOP';
    return {
      short: t(`${top ? 'T' : 'B'}${n}`, `${top ? 'A' : 'B'}${n}`, `${top ? 'A' : 'B'}${n}`),
      long: t(`${top ? 'Top' : 'Bottom'} of the ${ordinalEn(n)}`, `${top ? 'Alta' : 'Baja'} de la ${n}.ª entrada`, `${top ? 'Alta' : 'Baixa'} da ${n}ª entrada`),
    };
  }
  return undefined;
}

export function phaseText(sysname: string): PhaseText {
  return FIXED[sysname] ?? numbered(sysname) ?? { short: { en: sysname }, long: { en: sysname } };
}

export function phaseCaption(sysname: string, locale: Locale = 'en'): { short: string; long: string } {
  const p = phaseText(sysname);
  return { short: p.short[locale] ?? p.short.en, long: p.long[locale] ?? p.long.en };
}
