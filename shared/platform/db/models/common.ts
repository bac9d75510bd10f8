import { Schema } from 'mongoose';
import { nullable } from './define';

/** A name in every supported locale (en required; es/pt fall back to en when absent). */
export const LocalizedTextSchema = new Schema({ en: { type: String, required: true }, es: String, pt: String }, { _id: false });

/** Counts settlement reads (the contract's LiveEventData); any of them may be null. */
export const StatsFields = {
  ...nullable({ homeGoals: Number, awayGoals: Number, homeGoalsFirstHalf: Number, awayGoalsFirstHalf: Number, homeCorners: Number, awayCorners: Number }),
  ...nullable({ homeYellowCards: Number, awayYellowCards: Number, homeRedCards: Number, awayRedCards: Number }),
};
