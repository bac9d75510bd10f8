/** The scopes of the page cache's invalidation (shared/platform/cache/versions.ts has the contract). */
export const CACHE_SCOPES = ['events', 'competitions', 'ai'] as const;
export type CacheScope = (typeof CACHE_SCOPES)[number];
