import { Schema } from 'mongoose';

/** A name in every supported locale (en required; es/pt fall back to en when absent). */
export const LocalizedTextSchema = new Schema({ en: { type: String, required: true }, es: String, pt: String }, { _id: false });

/** Counts settlement reads (the contract's LiveEventData); any of them may be null. */
export const StatsFields = {
  homeGoals: { type: Number, default: null },
  awayGoals: { type: Number, default: null },
  homeGoalsFirstHalf: { type: Number, default: null },
  awayGoalsFirstHalf: { type: Number, default: null },
  homeCorners: { type: Number, default: null },
  awayCorners: { type: Number, default: null },
  homeYellowCards: { type: Number, default: null },
  awayYellowCards: { type: Number, default: null },
  homeRedCards: { type: Number, default: null },
  awayRedCards: { type: Number, default: null },
};
