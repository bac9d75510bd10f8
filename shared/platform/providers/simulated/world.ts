import type { SportId } from '../../../domain/sports';

/**
 * The simulated world: competitions of every sport in real regions, with real-looking (invented)
 * team and player names. Fixed data: the seed changes fixtures, strengths and outcomes, never
 * the names, so a team keeps its id across runs.
 */

export interface SimCompetition {
  /** Stable integer id (part of the API). */
  id: number;
  sportId: SportId;
  name: string;
  regionCode: string;
  priority: number;
  teams: { name: string; regionCode: string }[];
  /** Fixtures per weekday (0 = Sunday). */
  fixturesByWeekday: readonly number[];
  /** Kickoff times, hours UTC. */
  kickoffs: readonly number[];
  /** Sport format variant: basketball quarter length, tennis best-of, ... */
  format: SimFormat;
}

export interface SimFormat {
  /** Basketball: minutes per quarter (12 NBA, 10 FIBA). */
  quarterMinutes?: number;
  /** Tennis / volleyball: sets to win the match (2 = best of 3, 3 = best of 5). */
  setsToWin?: number;
  /** Scoring level relative to the sport's base (league style). */
  scoring?: number;
}

const SUFFIX = {
  england: ['United', 'Athletic', 'Rovers', 'Town', 'Albion', 'Wanderers', 'County', 'City'],
  spain: ['Real {c}', 'Atlético {c}', 'CD {c}', 'UD {c}', 'Racing {c}', 'SD {c}', 'CF {c}', 'Deportivo {c}'],
  italy: ['AC {c}', 'US {c}', '{c} Calcio', 'SS {c}', 'AS {c}', 'Virtus {c}'],
  germany: ['FC {c}', 'SV {c}', 'VfB {c}', 'Borussia {c}', 'SC {c}', 'TSV {c}', 'FSV {c}'],
  france: ['FC {c}', 'AS {c}', 'Olympique {c}', 'Stade {c}', 'RC {c}', 'SC {c}'],
  portugal: ['SC {c}', 'FC {c}', 'CD {c}', 'Académico {c}', 'GD {c}'],
  brazil: ['{c} EC', '{c} FC', 'Atlético {c}', 'Esporte {c}', 'Sport {c}', 'América {c}'],
  argentina: ['Club {c}', 'Atlético {c}', 'Deportivo {c}', 'Sportivo {c}', 'Unión {c}'],
  netherlands: ['FC {c}', 'SC {c}', 'Go Ahead {c}', 'VV {c}', '{c} Boys'],
  usa: ['{c} FC', '{c} SC', 'Real {c}', '{c} United'],
  mexico: ['Club {c}', 'Deportivo {c}', 'Atlético {c}', 'Real {c}'],
} as const;

const NICKNAMES = [
  'Falcons',
  'Comets',
  'Rangers',
  'Pioneers',
  'Miners',
  'Mariners',
  'Outlaws',
  'Voyagers',
  'Stallions',
  'Storm',
  'Blaze',
  'Titans',
  'Foxes',
  'Herons',
  'Ironmen',
  'Lynx',
  'Monarchs',
  'Ospreys',
  'Pilots',
  'Raptors',
  'Sentinels',
  'Thunder',
  'Vipers',
  'Wolves',
  'Bison',
  'Coyotes',
  'Drifters',
  'Express',
  'Flyers',
  'Gulls',
  'Hawks',
  'Jackals',
  'Knights',
  'Lumberjacks',
  'Mustangs',
  'Navigators',
  'Owls',
  'Pumas',
  'Quakes',
  'Rams',
];

const CITIES: Record<string, readonly string[]> = {
  'GB-ENG': [
    'Ashford',
    'Barnsley',
    'Carlisle',
    'Dorchester',
    'Exeter',
    'Fleetwood',
    'Gillingham',
    'Harrogate',
    'Ipswich',
    'Kendal',
    'Lancaster',
    'Maidstone',
    'Northampton',
    'Oldham',
    'Peterborough',
    'Reading',
    'Salisbury',
    'Telford',
    'Walsall',
    'Yeovil',
  ],
  ES: [
    'Albacete',
    'Badajoz',
    'Cáceres',
    'Córdoba',
    'Elche',
    'Ferrol',
    'Girona',
    'Huesca',
    'Jaén',
    'León',
    'Logroño',
    'Lugo',
    'Málaga',
    'Murcia',
    'Ourense',
    'Palencia',
    'Salamanca',
    'Segovia',
    'Tarragona',
    'Zamora',
  ],
  IT: [
    'Ancona',
    'Bergamo',
    'Brescia',
    'Cagliari',
    'Como',
    'Cremona',
    'Ferrara',
    'Lecce',
    'Livorno',
    'Modena',
    'Monza',
    'Padova',
    'Parma',
    'Perugia',
    'Pescara',
    'Pisa',
    'Reggio',
    'Salerno',
    'Trieste',
    'Verona',
  ],
  DE: [
    'Aachen',
    'Bielefeld',
    'Bochum',
    'Braunschweig',
    'Darmstadt',
    'Duisburg',
    'Erfurt',
    'Freiburg',
    'Fürth',
    'Heidenheim',
    'Kassel',
    'Kiel',
    'Magdeburg',
    'Mainz',
    'Münster',
    'Osnabrück',
    'Paderborn',
    'Rostock',
    'Ulm',
    'Würzburg',
  ],
  FR: ['Amiens', 'Angers', 'Auxerre', 'Brest', 'Caen', 'Dijon', 'Grenoble', 'Le Havre', 'Lorient', 'Metz', 'Nancy', 'Nîmes', 'Niort', 'Orléans', 'Pau', 'Reims', 'Rodez', 'Rouen', 'Troyes', 'Valence'],
  PT: [
    'Aveiro',
    'Barcelos',
    'Braga',
    'Chaves',
    'Coimbra',
    'Covilhã',
    'Estoril',
    'Faro',
    'Famalicão',
    'Guimarães',
    'Leiria',
    'Moreira',
    'Penafiel',
    'Portimão',
    'Setúbal',
    'Tondela',
    'Viseu',
    'Vizela',
  ],
  BR: [
    'Belém',
    'Campinas',
    'Cuiabá',
    'Curitiba',
    'Florianópolis',
    'Fortaleza',
    'Goiânia',
    'Joinville',
    'Londrina',
    'Maceió',
    'Manaus',
    'Natal',
    'Pelotas',
    'Recife',
    'Ribeirão',
    'Salvador',
    'Santos',
    'Sorocaba',
    'Uberlândia',
    'Vitória',
  ],
  AR: [
    'Bahía Blanca',
    'Banfield',
    'Córdoba',
    'Corrientes',
    'Junín',
    'La Plata',
    'Lanús',
    'Mendoza',
    'Paraná',
    'Quilmes',
    'Rafaela',
    'Rosario',
    'Salta',
    'San Juan',
    'Santa Fe',
    'Tandil',
    'Tucumán',
    'Zárate',
  ],
  US: [
    'Albany',
    'Boise',
    'Charlotte',
    'Des Moines',
    'El Paso',
    'Fresno',
    'Hartford',
    'Lexington',
    'Memphis',
    'Omaha',
    'Reno',
    'Richmond',
    'Rochester',
    'Sacramento',
    'Spokane',
    'Tacoma',
    'Tucson',
    'Tulsa',
    'Wichita',
    'Raleigh',
    'Anchorage',
    'Birmingham',
    'Columbus',
    'Dayton',
    'Eugene',
    'Flint',
    'Greenville',
    'Jackson',
    'Knoxville',
    'Madison',
    'Norfolk',
    'Provo',
  ],
  MX: [
    'Aguascalientes',
    'Cancún',
    'Celaya',
    'Culiacán',
    'Durango',
    'Hermosillo',
    'Irapuato',
    'León',
    'Mazatlán',
    'Mérida',
    'Morelia',
    'Oaxaca',
    'Puebla',
    'Querétaro',
    'Saltillo',
    'Tampico',
    'Toluca',
    'Zacatecas',
  ],
  NL: ['Almelo', 'Breda', 'Deventer', 'Emmen', 'Groningen', 'Haarlem', 'Heerenveen', 'Helmond', 'Leeuwarden', 'Maastricht', 'Nijmegen', 'Sittard', 'Tilburg', 'Venlo', 'Zwolle', 'Dordrecht'],
  EU: ['Lisboa', 'Madrid', 'Milano', 'München', 'Paris', 'Amsterdam', 'Porto', 'Wien', 'Praha', 'Zagreb', 'Beograd', 'Istanbul', 'Athína', 'København', 'Glasgow', 'Bruxelles'],
  CA: ['Calgary', 'Edmonton', 'Halifax', 'Hamilton', 'Moncton', 'Ottawa', 'Quebec', 'Regina', 'Saskatoon', 'Winnipeg'],
  JP: ['Chiba', 'Fukuoka', 'Hiroshima', 'Kobe', 'Kyoto', 'Nagoya', 'Niigata', 'Osaka', 'Sapporo', 'Sendai', 'Shizuoka', 'Yokohama'],
  KR: ['Busan', 'Changwon', 'Daegu', 'Daejeon', 'Gwangju', 'Incheon', 'Jeonju', 'Pohang', 'Seoul', 'Suwon', 'Ulsan'],
  RU: ['Kazan', 'Yaroslavl', 'Omsk', 'Ufa', 'Chelyabinsk', 'Novosibirsk', 'Samara', 'Perm', 'Sochi', 'Tver', 'Vladivostok', 'Khabarovsk'],
  SE: ['Borås', 'Gävle', 'Halmstad', 'Jönköping', 'Karlstad', 'Linköping', 'Luleå', 'Malmö', 'Örebro', 'Skellefteå', 'Växjö', 'Umeå'],
  FI: ['Espoo', 'Hämeenlinna', 'Joensuu', 'Jyväskylä', 'Kuopio', 'Lahti', 'Lappeenranta', 'Oulu', 'Pori', 'Rauma', 'Tampere', 'Turku'],
  PL: ['Bełchatów', 'Bydgoszcz', 'Gdańsk', 'Katowice', 'Kielce', 'Lublin', 'Olsztyn', 'Opole', 'Radom', 'Rzeszów', 'Szczecin', 'Zawiercie'],
};

const SURNAMES: Record<string, readonly string[]> = {
  ES: ['Alcaraz-Vidal', 'Navarro', 'Ortega', 'Carreño', 'Molina', 'Soler', 'Roca'],
  IT: ['Bellini', 'Cattaneo', 'Ferrante', 'Galli', 'Marchetti', 'Rinaldi', 'Sartori'],
  FR: ['Aubert', 'Chevalier', 'Delacroix', 'Fournier', 'Lemaire', 'Moreau', 'Perrin'],
  DE: ['Brandt', 'Engel', 'Hartmann', 'Keller', 'Lehmann', 'Vogel', 'Winter'],
  US: ['Bennett', 'Carter', 'Dawson', 'Foster', 'Hayes', 'Mitchell', 'Porter'],
  AR: ['Acosta', 'Benítez', 'Castro', 'Domínguez', 'Funes', 'Ledesma', 'Sosa'],
  BR: ['Almeida', 'Barbosa', 'Cardoso', 'Fonseca', 'Moreira', 'Pacheco', 'Teixeira'],
  RS: ['Jovanović', 'Marković', 'Nikolić', 'Petrović', 'Stanković'],
  AU: ['Fletcher', 'Harding', 'McAllister', 'Whitlock', 'Donnelly'],
  CZ: ['Dvořák', 'Horák', 'Kučera', 'Novotný', 'Svoboda'],
  PL: ['Kowalczyk', 'Lewandowska', 'Nowicka', 'Wójcik', 'Zielińska'],
  JP: ['Aoki', 'Fujita', 'Hayashi', 'Mori', 'Nakamura'],
  CN: ['Chen', 'Li', 'Wang', 'Zhang', 'Zhou'],
};
const MEN = ['Adrián', 'Bruno', 'Casper', 'Diego', 'Emil', 'Felix', 'Gael', 'Hugo', 'Ivan', 'Jonas', 'Leo', 'Matteo', 'Nico', 'Oskar', 'Pablo', 'Rafael', 'Theo', 'Tomás'];
const WOMEN = ['Alba', 'Bianca', 'Clara', 'Daria', 'Elena', 'Greta', 'Iris', 'Julia', 'Lena', 'Marta', 'Nina', 'Olga', 'Paula', 'Sofia', 'Vera', 'Zoe'];

function clubs(region: string, pattern: readonly string[], count: number, offset = 0): { name: string; regionCode: string }[] {
  const cities = CITIES[region];
  return Array.from({ length: Math.min(count, cities.length) }, (_, i) => {
    const city = cities[(i + offset) % cities.length];
    const p = pattern[i % pattern.length];
    return { name: p.includes('{c}') ? p.replace('{c}', city) : `${city} ${p}`, regionCode: region };
  });
}

function franchises(region: string, count: number, offset: number): { name: string; regionCode: string }[] {
  const cities = CITIES[region];
  return Array.from({ length: Math.min(count, cities.length) }, (_, i) => ({
    name: `${cities[(i + offset) % cities.length]} ${NICKNAMES[(i * 7 + offset) % NICKNAMES.length]}`,
    regionCode: region,
  }));
}

function players(women: boolean, count: number, offset: number): { name: string; regionCode: string }[] {
  const nations = Object.keys(SURNAMES);
  const firsts = women ? WOMEN : MEN;
  return Array.from({ length: count }, (_, i) => {
    const nation = nations[(i + offset) % nations.length];
    const surnames = SURNAMES[nation];
    const surname = surnames[(i * 3 + offset) % surnames.length];
    const first = firsts[(i * 5 + offset) % firsts.length];
    return { name: `${first} ${surname}`, regionCode: nation };
  });
}

const WEEKEND_LEAGUE = [4, 0, 0, 0, 0, 1, 5];
const MIDWEEK = [0, 0, 4, 4, 0, 0, 0];
const DAILY = (n: number) => [n, n, n, n, n, n, n];

/** One competition as a table row; the format defaults to the sport's base. */
type CompetitionRow = [
  id: number,
  name: string,
  regionCode: string,
  priority: number,
  teams: SimCompetition['teams'],
  fixturesByWeekday: readonly number[],
  kickoffs: readonly number[],
  format?: SimFormat,
];

function sport(sportId: SportId, rows: readonly CompetitionRow[]): SimCompetition[] {
  return rows.map(([id, name, regionCode, priority, teams, fixturesByWeekday, kickoffs, format = {}]) => ({ id, sportId, name, regionCode, priority, teams, fixturesByWeekday, kickoffs, format }));
}

export const COMPETITIONS: readonly SimCompetition[] = [
  // 1 soccer
  ...sport(1, [
    [101, 'Premier League', 'GB-ENG', 100, clubs('GB-ENG', SUFFIX.england, 20), [3, 1, 0, 0, 0, 0, 6], [12.5, 15, 17.5]],
    [102, 'LaLiga', 'ES', 95, clubs('ES', SUFFIX.spain, 20), [4, 1, 0, 0, 0, 1, 4], [13, 15.25, 17.5, 20]],
    [103, 'Serie A', 'IT', 90, clubs('IT', SUFFIX.italy, 20), [4, 1, 0, 0, 0, 1, 4], [11.5, 14, 17, 19.75]],
    [104, 'Bundesliga', 'DE', 90, clubs('DE', SUFFIX.germany, 18), [2, 0, 0, 0, 0, 1, 6], [14.5, 17.5, 19.5]],
    [105, 'Ligue 1', 'FR', 85, clubs('FR', SUFFIX.france, 18), [5, 0, 0, 0, 0, 1, 3], [12, 14, 16, 19.75]],
    [106, 'Primeira Liga', 'PT', 70, clubs('PT', SUFFIX.portugal, 18), [4, 1, 0, 0, 0, 1, 3], [15.5, 18, 20.5]],
    [107, 'Brasileirão Série A', 'BR', 80, clubs('BR', SUFFIX.brazil, 20), [5, 0, 0, 3, 2, 0, 4], [19, 21.5, 23.5]],
    [108, 'Liga Profesional', 'AR', 65, clubs('AR', SUFFIX.argentina, 18), [4, 2, 0, 0, 0, 2, 3], [18, 20.5, 22.5]],
    [109, 'MLS', 'US', 60, clubs('US', SUFFIX.usa, 20), [3, 0, 0, 2, 0, 0, 6], [23.5, 1.5, 2.5]],
    [
      110,
      'UEFA Champions League',
      'EU',
      100,
      clubs('EU', ['FC {c}', 'Sporting {c}', 'Dinamo {c}', 'Real {c}', 'Olympiacos {c}', 'Red Star {c}', 'Union {c}', 'Athletic {c}'], 16),
      MIDWEEK,
      [17.75, 20],
    ],
    [111, 'Liga MX', 'MX', 60, clubs('MX', SUFFIX.mexico, 18), [3, 0, 0, 0, 0, 2, 4], [0, 2, 3]],
    [112, 'Eredivisie', 'NL', 65, clubs('NL', SUFFIX.netherlands, 16), [4, 0, 0, 0, 0, 1, 4], [11.25, 13.5, 15.75, 19]],
  ]),
  // 2 basketball
  ...sport(2, [
    [201, 'NBA', 'US', 100, franchises('US', 30, 0), DAILY(7), [0, 0.5, 1, 2, 3], { quarterMinutes: 12, scoring: 1 }],
    [202, 'EuroLeague', 'EU', 80, clubs('EU', ['{c} BC', 'Basket {c}', '{c} Olympiacos', 'Zalgiris {c}'], 16), [0, 0, 4, 0, 4, 4, 0], [17, 18, 19.5], { quarterMinutes: 10, scoring: 0.74 }],
    [203, 'Liga ACB', 'ES', 60, clubs('ES', ['{c} Basket', 'CB {c}', 'Baloncesto {c}'], 18), WEEKEND_LEAGUE, [11.5, 16, 18.5], { quarterMinutes: 10, scoring: 0.75 }],
    [204, 'NBB', 'BR', 40, clubs('BR', ['{c} Basquete', 'Minas {c}', '{c} BC'], 16), [0, 2, 2, 2, 0, 2, 2], [22, 23.5], { quarterMinutes: 10, scoring: 0.78 }],
  ]),
  // 3 tennis
  ...sport(3, [
    [301, 'ATP Finals', 'IT', 100, players(false, 16, 0), DAILY(2), [13, 19], { setsToWin: 2 }],
    [302, 'WTA Finals', 'SA', 80, players(true, 16, 3), DAILY(2), [14, 17.5], { setsToWin: 2 }],
    [303, 'Davis Cup Finals', 'ES', 85, players(false, 24, 7), DAILY(3), [10, 14, 18], { setsToWin: 2 }],
    [304, 'ATP Challenger Montevideo', 'UY', 30, players(false, 32, 11), DAILY(6), [13, 14.5, 16, 17.5, 19, 20.5], { setsToWin: 2 }],
    [305, 'Australian Open', 'AU', 95, players(false, 32, 5), DAILY(3), [0, 2, 8], { setsToWin: 3 }],
  ]),
  // 4 baseball
  ...sport(4, [
    [401, 'MLB', 'US', 100, franchises('US', 30, 11), DAILY(6), [17, 23, 0, 1.5, 2]],
    [402, 'NPB', 'JP', 70, franchises('JP', 12, 3), [3, 0, 3, 3, 3, 3, 3], [9, 10], { scoring: 0.85 }],
    [403, 'KBO', 'KR', 60, franchises('KR', 10, 5), [5, 0, 5, 5, 5, 5, 5], [9.5], { scoring: 1.1 }],
    [404, 'Mexican Pacific League', 'MX', 40, franchises('MX', 8, 9), DAILY(3), [1.5, 2.5]],
  ]),
  // 5 volleyball
  ...sport(5, [
    [501, 'SuperLega', 'IT', 70, clubs('IT', ['{c} Volley', 'Pallavolo {c}', 'Power {c}'], 12), [4, 0, 0, 2, 0, 0, 2], [14.5, 17, 19.5], { setsToWin: 3 }],
    [502, 'Superliga', 'BR', 60, clubs('BR', ['{c} Vôlei', 'Sesi {c}', '{c} VC'], 12), [0, 2, 2, 2, 2, 2, 0], [21.5, 23], { setsToWin: 3 }],
    [503, 'PlusLiga', 'PL', 60, clubs('PL', ['{c} Volley', 'AZS {c}', 'Projekt {c}'], 12), [3, 1, 0, 0, 0, 2, 3], [14.75, 17.5], { setsToWin: 3 }],
    [504, 'CEV Champions League', 'EU', 50, clubs('EU', ['{c} Volley', 'VC {c}'], 12), [0, 0, 3, 3, 0, 0, 0], [17, 19], { setsToWin: 3 }],
  ]),
  // 6 american football
  ...sport(6, [
    [601, 'NFL', 'US', 100, franchises('US', 32, 17), [11, 1, 0, 0, 1, 0, 0], [18, 21.25, 1.25]],
    [602, 'NCAA Football', 'US', 70, clubs('US', ['{c} State', '{c} Tech', '{c} University'], 30, 4), [0, 0, 0, 0, 1, 2, 10], [16, 19.5, 23, 0.5], { scoring: 1.15 }],
    [603, 'CFL', 'CA', 40, franchises('CA', 9, 2), [0, 0, 0, 0, 1, 1, 2], [23, 1], { scoring: 1.1 }],
  ]),
  // 7 ice hockey
  ...sport(7, [
    [701, 'NHL', 'US', 100, franchises('US', 32, 23), DAILY(7), [0, 0.5, 1, 2, 3]],
    [702, 'KHL', 'RU', 60, franchises('RU', 12, 1), DAILY(4), [9, 14, 16.5]],
    [703, 'SHL', 'SE', 55, clubs('SE', ['{c} HC', '{c} IF', 'IK {c}'], 12), [2, 0, 0, 3, 3, 0, 3], [14, 18]],
    [704, 'Liiga', 'FI', 50, clubs('FI', ['{c} HPK', 'Ilves {c}', '{c} Pelicans', 'Kärpät {c}'], 12), [0, 0, 3, 0, 3, 3, 3], [16.5]],
    [705, 'DEL', 'DE', 45, clubs('DE', ['{c} Eisbären', 'EHC {c}', '{c} Pinguine'], 14, 3), [3, 0, 0, 0, 0, 3, 0], [13, 18.5]],
  ]),
  // 8 handball
  ...sport(8, [
    [801, 'Handball-Bundesliga', 'DE', 70, clubs('DE', ['THW {c}', 'SG {c}', 'HSG {c}', 'TBV {c}', 'SC {c}'], 18, 5), [3, 0, 0, 0, 2, 0, 2], [13, 17, 18]],
    [802, 'Liga ASOBAL', 'ES', 55, clubs('ES', ['BM {c}', 'Balonmano {c}', 'Ciudad de {c}'], 16, 2), [2, 0, 0, 0, 0, 0, 4], [16, 18.5]],
    [803, 'EHF Champions League', 'EU', 80, clubs('EU', ['HC {c}', 'RK {c}', '{c} Handball'], 16, 4), [0, 0, 0, 3, 3, 0, 0], [16.75, 18.75]],
    [804, 'Starligue', 'FR', 60, clubs('FR', ['{c} Handball', 'HBC {c}', 'USAM {c}'], 16, 6), [0, 0, 0, 3, 3, 0, 0], [18, 19.75]],
  ]),
];

export function competitionsOf(sportId: number): SimCompetition[] {
  return COMPETITIONS.filter((c) => c.sportId === sportId);
}
