import { setEnvForChildren } from '../../shared/platform/config';

/**
 * Sets variables for one test file and returns what puts them back: the mocha run is one process,
 * so a file's settings would otherwise reach every file after it.
 */
export function overrideEnv(values: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(values).map((k) => [k, process.env[k]]));
  setEnvForChildren(values);
  return () => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    setEnvForChildren({});
  };
}
