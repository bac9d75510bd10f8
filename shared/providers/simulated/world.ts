import type { SportId } from '../../sports';

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
  'Falcons', 'Comets', 'Rangers', 'Pioneers', 'Miners', 'Mariners', 'Outlaws', 'Voyagers', 'Stallions', 'Storm',
  'Blaze', 'Titans', 'Foxes', 'Herons', 'Ironmen', 'Lynx', 'Monarchs', 'Ospreys', 'Pilots', 'Raptors',
  'Sentinels', 'Thunder', 'Vipers', 'Wolves', 'Bison', 'Coyotes', 'Drifters', 'Express', 'Flyers', 'Gulls',
  'Hawks', 'Jackals', 'Knights', 'Lumberjacks', 'Mustangs', 'Navigators', 'Owls', 'Pumas', 'Quakes', 'Rams',
];

const CITIES: Record<string, readonly string[]> = {
  'GB-ENG': ['Ashford', 'Barnsley', 'Carlisle', 'Dorchester', 'Exeter', 'Fleetwood', 'Gillingham', 'Harrogate', 'Ipswich', 'Kendal', 'Lancaster', 'Maidstone', 'Northampton', 'Oldham', 'Peterborough', 'Reading', 'Salisbury', 'Telford', 'Walsall', 'Yeovil'],
  ES: ['Albacete', 'Badajoz', 'Cáceres', 'Córdoba', 'Elche', 'Ferrol', 'Girona', 'Huesca', 'Jaén', 'León', 'Logroño', 'Lugo', 'Málaga', 'Murcia', 'Ourense', 'Palencia', 'Salamanca', 'Segovia', 'Tarragona', 'Zamora'],
  IT: ['Ancona', 'Bergamo', 'Brescia', 'Cagliari', 'Como', 'Cremona', 'Ferrara', 'Lecce', 'Livorno', 'Modena', 'Monza', 'Padova', 'Parma', 'Perugia', 'Pescara', 'Pisa', 'Reggio', 'Salerno', 'Trieste', 'Verona'],
  DE: ['Aachen', 'Bielefeld', 'Bochum', 'Braunschweig', 'Darmstadt', 'Duisburg', 'Erfurt', 'Freiburg', 'Fürth', 'Heidenheim', 'Kassel', 'Kiel', 'Magdeburg', 'Mainz', 'Münster', 'Osnabrück', 'Paderborn', 'Rostock', 'Ulm', 'Würzburg'],
  FR: ['Amiens', 'Angers', 'Auxerre', 'Brest', 'Caen', 'Dijon', 'Grenoble', 'Le Havre', 'Lorient', 'Metz', 'Nancy', 'Nîmes', 'Niort', 'Orléans', 'Pau', 'Reims', 'Rodez', 'Rouen', 'Troyes', 'Valence'],
  PT: ['Aveiro', 'Barcelos', 'Braga', 'Chaves', 'Coimbra', 'Covilhã', 'Estoril', 'Faro', 'Famalicão', 'Guimarães', 'Leiria', 'Moreira', 'Penafiel', 'Portimão', 'Setúbal', 'Tondela', 'Viseu', 'Vizela'],
  BR: ['Belém', 'Campinas', 'Cuiabá', 'Curitiba', 'Florianópolis', 'Fortaleza', 'Goiânia', 'Joinville', 'Londrina', 'Maceió', 'Manaus', 'Natal', 'Pelotas', 'Recife', 'Ribeirão', 'Salvador', 'Santos', 'Sorocaba', 'Uberlândia', 'Vitória'],
  AR: ['Bahía Blanca', 'Banfield', 'Córdoba', 'Corrientes', 'Junín', 'La Plata', 'Lanús', 'Mendoza', 'Paraná', 'Quilmes', 'Rafaela', 'Rosario', 'Salta', 'San Juan', 'Santa Fe', 'Tandil', 'Tucumán', 'Zárate'],
  US: ['Albany', 'Boise', 'Charlotte', 'Des Moines', 'El Paso', 'Fresno', 'Hartford', 'Lexington', 'Memphis', 'Omaha', 'Reno', 'Richmond', 'Rochester', 'Sacramento', 'Spokane', 'Tacoma', 'Tucson', 'Tulsa', 'Wichita', 'Raleigh', 'Anchorage', 'Birmingham', 'Columbus', 'Dayton', 'Eugene', 'Flint', 'Greenville', 'Jackson', 'Knoxville', 'Madison', 'Norfolk', 'Provo'],
  MX: ['Aguascalientes', 'Cancún', 'Celaya', 'Culiacán', 'Durango', 'Hermosillo', 'Irapuato', 'León', 'Mazatlán', 'Mérida', 'Morelia', 'Oaxaca', 'Puebla', 'Querétaro', 'Saltillo', 'Tampico', 'Toluca', 'Zacatecas'],
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

export const COMPETITIONS: readonly SimCompetition[] = [
  // 1 soccer
  { id: 101, sportId: 1, name: 'Premier League', regionCode: 'GB-ENG', priority: 100, teams: clubs('GB-ENG', SUFFIX.england, 20), fixturesByWeekday: [3, 1, 0, 0, 0, 0, 6], kickoffs: [12.5, 15, 17.5], format: {} },
  { id: 102, sportId: 1, name: 'LaLiga', regionCode: 'ES', priority: 95, teams: clubs('ES', SUFFIX.spain, 20), fixturesByWeekday: [4, 1, 0, 0, 0, 1, 4], kickoffs: [13, 15.25, 17.5, 20], format: {} },
  { id: 103, sportId: 1, name: 'Serie A', regionCode: 'IT', priority: 90, teams: clubs('IT', SUFFIX.italy, 20), fixturesByWeekday: [4, 1, 0, 0, 0, 1, 4], kickoffs: [11.5, 14, 17, 19.75], format: {} },
  { id: 104, sportId: 1, name: 'Bundesliga', regionCode: 'DE', priority: 90, teams: clubs('DE', SUFFIX.germany, 18), fixturesByWeekday: [2, 0, 0, 0, 0, 1, 6], kickoffs: [14.5, 17.5, 19.5], format: {} },
  { id: 105, sportId: 1, name: 'Ligue 1', regionCode: 'FR', priority: 85, teams: clubs('FR', SUFFIX.france, 18), fixturesByWeekday: [5, 0, 0, 0, 0, 1, 3], kickoffs: [12, 14, 16, 19.75], format: {} },
  { id: 106, sportId: 1, name: 'Primeira Liga', regionCode: 'PT', priority: 70, teams: clubs('PT', SUFFIX.portugal, 18), fixturesByWeekday: [4, 1, 0, 0, 0, 1, 3], kickoffs: [15.5, 18, 20.5], format: {} },
  { id: 107, sportId: 1, name: 'Brasileirão Série A', regionCode: 'BR', priority: 80, teams: clubs('BR', SUFFIX.brazil, 20), fixturesByWeekday: [5, 0, 0, 3, 2, 0, 4], kickoffs: [19, 21.5, 23.5], format: {} },
  { id: 108, sportId: 1, name: 'Liga Profesional', regionCode: 'AR', priority: 65, teams: clubs('AR', SUFFIX.argentina, 18), fixturesByWeekday: [4, 2, 0, 0, 0, 2, 3], kickoffs: [18, 20.5, 22.5], format: {} },
  { id: 109, sportId: 1, name: 'MLS', regionCode: 'US', priority: 60, teams: clubs('US', SUFFIX.usa, 20), fixturesByWeekday: [3, 0, 0, 2, 0, 0, 6], kickoffs: [23.5, 1.5, 2.5], format: {} },
  { id: 110, sportId: 1, name: 'UEFA Champions League', regionCode: 'EU', priority: 100, teams: clubs('EU', ['FC {c}', 'Sporting {c}', 'Dinamo {c}', 'Real {c}', 'Olympiacos {c}', 'Red Star {c}', 'Union {c}', 'Athletic {c}'], 16), fixturesByWeekday: MIDWEEK, kickoffs: [17.75, 20], format: {} },
  { id: 111, sportId: 1, name: 'Liga MX', regionCode: 'MX', priority: 60, teams: clubs('MX', SUFFIX.mexico, 18), fixturesByWeekday: [3, 0, 0, 0, 0, 2, 4], kickoffs: [0, 2, 3], format: {} },
  { id: 112, sportId: 1, name: 'Eredivisie', regionCode: 'NL', priority: 65, teams: clubs('NL', SUFFIX.netherlands, 16), fixturesByWeekday: [4, 0, 0, 0, 0, 1, 4], kickoffs: [11.25, 13.5, 15.75, 19], format: {} },
  // 2 basketball
  { id: 201, sportId: 2, name: 'NBA', regionCode: 'US', priority: 100, teams: franchises('US', 30, 0), fixturesByWeekday: DAILY(7), kickoffs: [0, 0.5, 1, 2, 3], format: { quarterMinutes: 12, scoring: 1 } },
  { id: 202, sportId: 2, name: 'EuroLeague', regionCode: 'EU', priority: 80, teams: clubs('EU', ['{c} BC', 'Basket {c}', '{c} Olympiacos', 'Zalgiris {c}'], 16), fixturesByWeekday: [0, 0, 4, 0, 4, 4, 0], kickoffs: [17, 18, 19.5], format: { quarterMinutes: 10, scoring: 0.74 } },
  { id: 203, sportId: 2, name: 'Liga ACB', regionCode: 'ES', priority: 60, teams: clubs('ES', ['{c} Basket', 'CB {c}', 'Baloncesto {c}'], 18), fixturesByWeekday: WEEKEND_LEAGUE, kickoffs: [11.5, 16, 18.5], format: { quarterMinutes: 10, scoring: 0.75 } },
  { id: 204, sportId: 2, name: 'NBB', regionCode: 'BR', priority: 40, teams: clubs('BR', ['{c} Basquete', 'Minas {c}', '{c} BC'], 16), fixturesByWeekday: [0, 2, 2, 2, 0, 2, 2], kickoffs: [22, 23.5], format: { quarterMinutes: 10, scoring: 0.78 } },
  // 3 tennis
  { id: 301, sportId: 3, name: 'ATP Finals', regionCode: 'IT', priority: 100, teams: players(false, 16, 0), fixturesByWeekday: DAILY(2), kickoffs: [13, 19], format: { setsToWin: 2 } },
  { id: 302, sportId: 3, name: 'WTA Finals', regionCode: 'SA', priority: 80, teams: players(true, 16, 3), fixturesByWeekday: DAILY(2), kickoffs: [14, 17.5], format: { setsToWin: 2 } },
  { id: 303, sportId: 3, name: 'Davis Cup Finals', regionCode: 'ES', priority: 85, teams: players(false, 24, 7), fixturesByWeekday: DAILY(3), kickoffs: [10, 14, 18], format: { setsToWin: 2 } },
  { id: 304, sportId: 3, name: 'ATP Challenger Montevideo', regionCode: 'UY', priority: 30, teams: players(false, 32, 11), fixturesByWeekday: DAILY(6), kickoffs: [13, 14.5, 16, 17.5, 19, 20.5], format: { setsToWin: 2 } },
  { id: 305, sportId: 3, name: 'Australian Open', regionCode: 'AU', priority: 95, teams: players(false, 32, 5), fixturesByWeekday: DAILY(3), kickoffs: [0, 2, 8], format: { setsToWin: 3 } },
  // 4 baseball
  { id: 401, sportId: 4, name: 'MLB', regionCode: 'US', priority: 100, teams: franchises('US', 30, 11), fixturesByWeekday: DAILY(6), kickoffs: [17, 23, 0, 1.5, 2], format: {} },
  { id: 402, sportId: 4, name: 'NPB', regionCode: 'JP', priority: 70, teams: franchises('JP', 12, 3), fixturesByWeekday: [3, 0, 3, 3, 3, 3, 3], kickoffs: [9, 10], format: { scoring: 0.85 } },
  { id: 403, sportId: 4, name: 'KBO', regionCode: 'KR', priority: 60, teams: franchises('KR', 10, 5), fixturesByWeekday: [5, 0, 5, 5, 5, 5, 5], kickoffs: [9.5], format: { scoring: 1.1 } },
  { id: 404, sportId: 4, name: 'Mexican Pacific League', regionCode: 'MX', priority: 40, teams: franchises('MX', 8, 9), fixturesByWeekday: DAILY(3), kickoffs: [1.5, 2.5], format: {} },
  // 5 volleyball
  { id: 501, sportId: 5, name: 'SuperLega', regionCode: 'IT', priority: 70, teams: clubs('IT', ['{c} Volley', 'Pallavolo {c}', 'Power {c}'], 12), fixturesByWeekday: [4, 0, 0, 2, 0, 0, 2], kickoffs: [14.5, 17, 19.5], format: { setsToWin: 3 } },
  { id: 502, sportId: 5, name: 'Superliga', regionCode: 'BR', priority: 60, teams: clubs('BR', ['{c} Vôlei', 'Sesi {c}', '{c} VC'], 12), fixturesByWeekday: [0, 2, 2, 2, 2, 2, 0], kickoffs: [21.5, 23], format: { setsToWin: 3 } },
  { id: 503, sportId: 5, name: 'PlusLiga', regionCode: 'PL', priority: 60, teams: clubs('PL', ['{c} Volley', 'AZS {c}', 'Projekt {c}'], 12), fixturesByWeekday: [3, 1, 0, 0, 0, 2, 3], kickoffs: [14.75, 17.5], format: { setsToWin: 3 } },
  { id: 504, sportId: 5, name: 'CEV Champions League', regionCode: 'EU', priority: 50, teams: clubs('EU', ['{c} Volley', 'VC {c}'], 12), fixturesByWeekday: [0, 0, 3, 3, 0, 0, 0], kickoffs: [17, 19], format: { setsToWin: 3 } },
  // 6 american football
  { id: 601, sportId: 6, name: 'NFL', regionCode: 'US', priority: 100, teams: franchises('US', 32, 17), fixturesByWeekday: [11, 1, 0, 0, 1, 0, 0], kickoffs: [18, 21.25, 1.25], format: {} },
  { id: 602, sportId: 6, name: 'NCAA Football', regionCode: 'US', priority: 70, teams: clubs('US', ['{c} State', '{c} Tech', '{c} University'], 30, 4), fixturesByWeekday: [0, 0, 0, 0, 1, 2, 10], kickoffs: [16, 19.5, 23, 0.5], format: { scoring: 1.15 } },
  { id: 603, sportId: 6, name: 'CFL', regionCode: 'CA', priority: 40, teams: franchises('CA', 9, 2), fixturesByWeekday: [0, 0, 0, 0, 1, 1, 2], kickoffs: [23, 1], format: { scoring: 1.1 } },
  // 7 ice hockey
  { id: 701, sportId: 7, name: 'NHL', regionCode: 'US', priority: 100, teams: franchises('US', 32, 23), fixturesByWeekday: DAILY(7), kickoffs: [0, 0.5, 1, 2, 3], format: {} },
  { id: 702, sportId: 7, name: 'KHL', regionCode: 'RU', priority: 60, teams: franchises('RU', 12, 1), fixturesByWeekday: DAILY(4), kickoffs: [9, 14, 16.5], format: {} },
  { id: 703, sportId: 7, name: 'SHL', regionCode: 'SE', priority: 55, teams: clubs('SE', ['{c} HC', '{c} IF', 'IK {c}'], 12), fixturesByWeekday: [2, 0, 0, 3, 3, 0, 3], kickoffs: [14, 18], format: {} },
  { id: 704, sportId: 7, name: 'Liiga', regionCode: 'FI', priority: 50, teams: clubs('FI', ['{c} HPK', 'Ilves {c}', '{c} Pelicans', 'Kärpät {c}'], 12), fixturesByWeekday: [0, 0, 3, 0, 3, 3, 3], kickoffs: [16.5], format: {} },
  { id: 705, sportId: 7, name: 'DEL', regionCode: 'DE', priority: 45, teams: clubs('DE', ['{c} Eisbären', 'EHC {c}', '{c} Pinguine'], 14, 3), fixturesByWeekday: [3, 0, 0, 0, 0, 3, 0], kickoffs: [13, 18.5], format: {} },
  // 8 handball
  { id: 801, sportId: 8, name: 'Handball-Bundesliga', regionCode: 'DE', priority: 70, teams: clubs('DE', ['THW {c}', 'SG {c}', 'HSG {c}', 'TBV {c}', 'SC {c}'], 18, 5), fixturesByWeekday: [3, 0, 0, 0, 2, 0, 2], kickoffs: [13, 17, 18], format: {} },
  { id: 802, sportId: 8, name: 'Liga ASOBAL', regionCode: 'ES', priority: 55, teams: clubs('ES', ['BM {c}', 'Balonmano {c}', 'Ciudad de {c}'], 16, 2), fixturesByWeekday: [2, 0, 0, 0, 0, 0, 4], kickoffs: [16, 18.5], format: {} },
  { id: 803, sportId: 8, name: 'EHF Champions League', regionCode: 'EU', priority: 80, teams: clubs('EU', ['HC {c}', 'RK {c}', '{c} Handball'], 16, 4), fixturesByWeekday: [0, 0, 0, 3, 3, 0, 0], kickoffs: [16.75, 18.75], format: {} },
  { id: 804, sportId: 8, name: 'Starligue', regionCode: 'FR', priority: 60, teams: clubs('FR', ['{c} Handball', 'HBC {c}', 'USAM {c}'], 16, 6), fixturesByWeekday: [0, 0, 0, 3, 3, 0, 0], kickoffs: [18, 19.75], format: {} },
];

export function competitionsOf(sportId: number): SimCompetition[] {
  return COMPETITIONS.filter((c) => c.sportId === sportId);
}
