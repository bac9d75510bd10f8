// The settlement worker's entry point into the pure grading engine.
export * from './errors';
export * from './results';
export * from './grade';
export * from './parlay';
export * from './corrections';
export * from './performance';
