import type { FilterQuery } from 'mongoose';
import { Competition, Region, Team } from '../models';
import type { TeamDoc } from '../models/team';
import { type BulkCounts, bulkWriteInBatches, type WriteOps } from '../bulk';

/** Reference data: regions, competitions and teams. */

/** The competitions with these ids, whole. */
export async function findCompetitionsByIds(ids: number[]) {
  return Competition.find({ _id: { $in: ids } }).lean();
}

/** Names of the regions with these ids. */
export async function findRegionNamesByIds(ids: number[]) {
  return Region.find({ _id: { $in: ids } }, { name: 1 }).lean();
}

/** Every region, its name and code. */
export async function findAllRegionNamesAndCodes() {
  return Region.find({}, { name: 1, code: 1 }).lean();
}

/** Region and sport of every competition (of one sport when `filter.sportId` is given). */
export async function findCompetitionRegionsAndSports(filter: { sportId?: number }) {
  return Competition.find(filter, { regionId: 1, sportId: 1 }).lean();
}

/** The competitions of a region, name and sport, most popular first. */
export async function findRegionCompetitionsByPriority(regionId: number) {
  return Competition.find({ regionId }, { name: 1, sportId: 1, priority: 1 }).sort({ priority: -1, _id: 1 }).lean();
}

/** One page of the teams matching the filter, by English name. */
/** Which teams: any part of a name matching `namePattern` (an escaped, folded pattern), of a sport or a region. */
export interface TeamsFilter {
  namePattern?: string;
  sportId?: number;
  regionId?: number;
}

const teamsWhere = (f: TeamsFilter): FilterQuery<TeamDoc> => ({
  ...(f.namePattern ? { searchNames: { $regex: f.namePattern } } : {}),
  ...(f.sportId !== undefined ? { sportId: f.sportId } : {}),
  ...(f.regionId !== undefined ? { regionId: f.regionId } : {}),
});

export async function countTeamsWhere(f: TeamsFilter): Promise<number> {
  return Team.countDocuments(teamsWhere(f));
}

export async function findTeamsPageByName(f: TeamsFilter, page: number, limit: number) {
  return Team.find(teamsWhere(f), { name: 1, sportId: 1, regionId: 1 })
    .sort({ 'name.en': 1, _id: 1 })
    .skip((page - 1) * limit)
    .limit(limit)
    .lean();
}

export async function countTeamsMatching(filter: FilterQuery<TeamDoc>): Promise<number> {
  return Team.countDocuments(filter);
}

export const countAllCompetitions = (): Promise<number> => Competition.countDocuments().exec();
export const countAllRegions = (): Promise<number> => Region.countDocuments().exec();
export const countAllTeams = (): Promise<number> => Team.countDocuments().exec();
/** Repository of the reference documents: Region, Competition, Team. */

/** Region upserts (ingestion) on the driver collection, in server-sized batches. */
export const writeRegionOpsInBatches = (ops: WriteOps): Promise<BulkCounts> => bulkWriteInBatches(Region.collection, ops);

/** Competition upserts (ingestion) on the driver collection, in server-sized batches. */
export const writeCompetitionOpsInBatches = (ops: WriteOps): Promise<BulkCounts> => bulkWriteInBatches(Competition.collection, ops);

/** Team upserts (ingestion) on the driver collection, in server-sized batches. */
export const writeTeamOpsInBatches = (ops: WriteOps): Promise<BulkCounts> => bulkWriteInBatches(Team.collection, ops);
