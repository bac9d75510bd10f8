import { expect } from 'chai';
import { buildNarrative, type NarrativeInputs } from '../../../shared/domain/ai/narrative';

const base: NarrativeInputs = {
  homeTeam: 'Arsenal',
  awayTeam: 'Chelsea',
  selection: { en: 'Arsenal', es: 'Arsenal', pt: 'Arsenal' },
  odds: 2.25,
  modelProbability: 0.4812,
  marketProbability: 0.4321,
  edgePercentage: 8.27,
  kellyFraction: 0.0165,
  confidence: 'Medium',
  standardError: 0.031,
  expectedScore: { home: 1.62, away: 1.18 },
  modelWeight: 0.3,
  devigMethod: 'shin',
  marginPercent: 2.6,
  matchesUsed: 1140,
  bookmakers: 4,
  simulatedProbability: 0.4779,
  simulationIterations: 10000,
};

describe('narrative', () => {
  it('states the numbers the model used, in three languages', () => {
    const n = buildNarrative(base);
    const all = [...n.rationale, ...n.riskFactors, ...n.dataSupport];
    for (const s of all) for (const l of ['en', 'es', 'pt'] as const) expect(s[l]).to.be.a('string').and.not.equal('');
    const en = all.map((s) => s.en).join(' ');
    expect(en).to.include('48.1%').and.include('43.2%').and.include('2.25').and.include('8.3%').and.include('1140').and.include('1.62');
    const es = all.map((s) => s.es).join(' ');
    expect(es).to.include('48,1%').and.include('2,25');
    expect(all.map((s) => s.pt).join(' ')).to.include('43,2%');
  });

  const risks = [
    { name: 'a large model-market gap', change: { modelProbability: 0.55 }, word: 'disagrees' },
    { name: 'long odds', change: { odds: 5.5 }, word: 'Long odds' },
    { name: 'little history', change: { matchesUsed: 40 }, word: 'Only 40' },
  ];
  for (const r of risks) {
    it(`flags ${r.name} only when present`, () => {
      expect(
        buildNarrative(base)
          .riskFactors.map((s) => s.en)
          .join(' '),
      ).to.not.include(r.word);
      expect(
        buildNarrative({ ...base, ...r.change })
          .riskFactors.map((s) => s.en)
          .join(' '),
      ).to.include(r.word);
    });
  }
});
