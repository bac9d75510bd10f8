import { expect } from 'chai';
import { CHANGE_KINDS, type ChangeEntry, type ChangeKind } from '../../../shared/domain/feed/changes';
import { channelOf, messageOf, PendingMessages, passes, resumeDecision, sseMessage, STREAM_CHANNELS, withIds, type StreamFilter } from '../../../shared/domain/stream/messages';

const at = new Date('2026-11-26T15:00:00Z');
const entry = (id: string, eventId: string, kind: ChangeKind, data: unknown): ChangeEntry => ({ id, poll: 'b', change: { eventId, kind, at, data, provider: 'simulated' } });
const price = (id: string, eventId: string, items: [string, number][]) => entry(id, eventId, 'price', { items: items.map(([itemId, p]) => ({ id: itemId, price: p, isAvailable: true })) });
const all: StreamFilter = { channels: new Set(STREAM_CHANNELS) };

describe('stream messages (pure)', () => {
  it('happy: every change kind has its channel', () => {
    expect(CHANGE_KINDS.map((k) => [k, channelOf(k)])).to.deep.equal([
      ['price', 'odds'],
      ['status', 'status'],
      ['score', 'scores'],
      ['lineups', 'scores'],
      ['closing', 'odds'],
      ['settled', 'settlements'],
      ['result', 'settlements'],
      ['recommendation', 'recommendations'],
    ]);
  });

  it('happy: a message carries the event, kind, ISO time, provider and data; the SSE text names its id and event', () => {
    const m = messageOf(entry('5-1', 'e1', 'score', { home: 1 }));
    expect(m).to.deep.include({ id: '5-1', channel: 'scores', data: { eventId: 'e1', kind: 'score', at: at.toISOString(), provider: 'simulated', data: { home: 1 } } });
    expect(sseMessage('scores', m.data, m.id)).to.equal(`id: 5-1\nevent: scores\ndata: ${JSON.stringify(m.data)}\n\n`);
    expect(sseMessage('snapshot_required', { reason: 'trimmed' }, null)).to.equal('event: snapshot_required\ndata: {"reason":"trimmed"}\n\n');
  });

  it("happy: a message names its event's teams when the event is stored, and each priced item's market and outcome from the catalog (an id it does not know as it is)", () => {
    const meta = { sportId: 1, competitionId: 9, homeTeam: 'Arsenal', awayTeam: 'Chelsea' };
    const m = messageOf(
      price('6-0', '704', [
        ['704-SOCCER_UNDER_OVER@1.5-O', 1.9],
        ['704-SOCCER_MATCH_RESULT-X', 3.4],
        ['704-SOCCER_ASIAN_HANDICAP@-0.5-2', 1.8],
        ['704-NOT_A_MARKET-1', 2],
        ['705-SOCCER_MATCH_RESULT-1', 2],
        ['free text', 2],
      ]),
      meta,
    );
    expect(m.data.event).to.deep.equal({ homeTeam: 'Arsenal', awayTeam: 'Chelsea' });
    expect((m.data.data as { items: unknown[] }).items).to.deep.equal([
      { id: '704-SOCCER_UNDER_OVER@1.5-O', price: 1.9, isAvailable: true, marketCaption: 'Total Goals Over/Under 1.5', caption: 'Over 1.5' },
      { id: '704-SOCCER_MATCH_RESULT-X', price: 3.4, isAvailable: true, marketCaption: 'Match Result', caption: 'Draw' },
      { id: '704-SOCCER_ASIAN_HANDICAP@-0.5-2', price: 1.8, isAvailable: true, marketCaption: 'Asian Handicap -0.5', caption: 'Away +0.5' },
      { id: '704-NOT_A_MARKET-1', price: 2, isAvailable: true },
      { id: '705-SOCCER_MATCH_RESULT-1', price: 2, isAvailable: true },
      { id: 'free text', price: 2, isAvailable: true },
    ]);
    expect(messageOf(entry('8-0', '704', 'recommendation', { recommendationId: 'r1', betItemId: '704-SOCCER_MATCH_RESULT-1', outcome: 'Home' })).data.data).to.deep.equal({
      recommendationId: 'r1',
      betItemId: '704-SOCCER_MATCH_RESULT-1',
      outcome: 'Home',
      marketCaption: 'Match Result',
      caption: 'Home',
    });
    expect(messageOf(entry('7-0', '704', 'score', { home: 1 })).data).to.not.have.property('event');
    expect(messageOf(entry('7-0', '704', 'score', { home: 1 }), meta).data.data).to.deep.equal({ home: 1 });
  });

  it('happy: filters by channel, event ids, sport and competition (an unknown event fails a sport filter)', () => {
    const e = entry('1-0', 'e1', 'price', {});
    expect(passes(all, e, undefined)).to.equal(true);
    expect(passes({ channels: new Set(['scores'] as const) }, e, undefined)).to.equal(false);
    expect(passes({ ...all, eventIds: new Set(['e2']) }, e, undefined)).to.equal(false);
    const meta = { sportId: 1, competitionId: 9, homeTeam: 'Arsenal', awayTeam: 'Chelsea' };
    expect(passes({ ...all, sportId: 1 }, e, meta)).to.equal(true);
    expect(passes({ ...all, sportId: 2 }, e, meta)).to.equal(false);
    expect(passes({ ...all, competitionId: 9 }, e, meta)).to.equal(true);
    expect(passes({ ...all, sportId: 1 }, e, null)).to.equal(false);
  });

  it("happy: a slow reader's pending messages merge per event and kind, prices item by item, marked conflated, in the order of their last id", () => {
    const p = new PendingMessages();
    p.add(
      messageOf(
        price('1-0', 'e1', [
          ['a', 2],
          ['b', 3],
        ]),
      ),
    );
    p.add(messageOf(entry('2-0', 'e2', 'score', { home: 1 })));
    p.add(messageOf(price('3-0', 'e1', [['b', 3.5]])));
    p.add(messageOf(entry('4-0', 'e1', 'score', { home: 2 })));
    expect(p.size).to.equal(3);
    const out = p.drain('0-0');
    expect(p.size).to.equal(0);
    expect(out.map((o) => [o.message.id, o.message.data.kind, o.message.data.eventId, o.message.data.conflated ?? false])).to.deep.equal([
      ['2-0', 'score', 'e2', false],
      ['3-0', 'price', 'e1', true],
      ['4-0', 'score', 'e1', false],
    ]);
    expect(out[1].message.data.data).to.deep.equal({
      items: [
        { id: 'a', price: 2, isAvailable: true },
        { id: 'b', price: 3.5, isAvailable: true },
      ],
    });
    expect(out[1].message.merged).to.equal(2);
    expect(out[1].message.data).to.include({ conflated: true, merged: 2, firstEntryId: '1-0', lastEntryId: '3-0' });
  });

  it('happy: recommendations are never merged with each other', () => {
    const p = new PendingMessages();
    p.add(messageOf(entry('1-0', 'e1', 'recommendation', { recommendationId: 'r1' })));
    p.add(messageOf(entry('2-0', 'e1', 'recommendation', { recommendationId: 'r2' })));
    expect(p.size).to.equal(2);
  });

  it('edge: every drained message carries an id, and a resume from any of them misses nothing (table)', () => {
    type Row = { entries: [string, string][]; from: string | null; ids: [string, string | null][] };
    const rows: Row[] = [
      // e2 (2-0) goes before e1's merge of 1-0 and 3-0: a client holding it has not got 1-0, so it carries the batch's start.
      {
        entries: [
          ['1-0', 'e1'],
          ['2-0', 'e2'],
          ['3-0', 'e1'],
        ],
        from: '0-5',
        ids: [
          ['2-0', '0-5'],
          ['3-0', '3-0'],
        ],
      },
      // Nothing overlaps: each message its own id.
      {
        entries: [
          ['1-0', 'a'],
          ['2-0', 'b'],
        ],
        from: '0-5',
        ids: [
          ['1-0', '1-0'],
          ['2-0', '2-0'],
        ],
      },
      // A complete message after an overlapped one: its own id; the overlapped one the previous complete id.
      {
        entries: [
          ['1-0', 'a'],
          ['2-0', 'b'],
          ['3-0', 'c'],
          ['4-0', 'b'],
          ['5-0', 'd'],
        ],
        from: '0-1',
        ids: [
          ['1-0', '1-0'],
          ['3-0', '1-0'],
          ['4-0', '4-0'],
          ['5-0', '5-0'],
        ],
      },
      // A batch of one merged message.
      {
        entries: [
          ['7-0', 'a'],
          ['8-0', 'a'],
        ],
        from: '6-0',
        ids: [['8-0', '8-0']],
      },
    ];
    for (const row of rows) {
      const p = new PendingMessages();
      for (const [id, e] of row.entries) p.add(messageOf(entry(id, e, 'score', { home: id })));
      const out = p.drain(row.from);
      expect(out.map((o) => [o.message.id, o.id])).to.deep.equal(row.ids);
      // The resume promise: after message i, every entry up to its id was in messages 0..i.
      out.forEach((o, i) => {
        const covered = new Set(out.slice(0, i + 1).flatMap((x) => row.entries.filter(([id, e]) => e === x.message.data.eventId && id >= x.message.firstId && id <= x.message.id).map(([id]) => id)));
        const before = row.entries.filter(([id]) => o.id !== null && id <= o.id && (row.from === null || id > row.from)).map(([id]) => id);
        for (const id of before) expect(covered.has(id), `${id} before resume id ${String(o.id)}`).to.equal(true);
      });
    }
    const plain = [messageOf(entry('1-0', 'a', 'score', 1)), messageOf(entry('2-0', 'b', 'score', 1))];
    expect(withIds(plain, null).map((o) => o.id)).to.deep.equal(['1-0', '2-0']);
  });

  it('happy: resume decisions: none, within the window, past it, unknown, trimmed', () => {
    const now = 1_800_000_000_000;
    const feed = { oldestId: `${now - 3_000_000}-0`, newestId: `${now - 1000}-4`, idRetained: true, nowMs: now };
    const window = 900_000;
    expect(resumeDecision(undefined, window, feed)).to.deep.equal({ from: 'now' });
    expect(resumeDecision(`${now - 60_000}-2`, window, feed)).to.deep.equal({ from: 'id', afterId: `${now - 60_000}-2` });
    expect(resumeDecision(`${now - window - 1}-0`, window, feed)).to.deep.equal({ from: 'now', snapshot: 'outside_window' });
    expect(resumeDecision(`${now - 1000}-5`, window, feed)).to.deep.equal({ from: 'now', snapshot: 'unknown_id' });
    expect(resumeDecision(`${now - 60_000}-2`, window, { ...feed, idRetained: false })).to.deep.equal({ from: 'now', snapshot: 'unknown_id' });
    expect(resumeDecision(`${now - 60_000}-2`, window, { ...feed, oldestId: `${now - 30_000}-0` })).to.deep.equal({ from: 'now', snapshot: 'trimmed' });
    expect(resumeDecision(`${now - 60_000}-2`, window, { ...feed, oldestId: null, newestId: null })).to.deep.equal({ from: 'now', snapshot: 'unknown_id' });
    expect(resumeDecision('nope', window, feed)).to.deep.equal({ from: 'now', snapshot: 'unknown_id' });
  });
});
