import { ensureDemoDatabase } from './demo-data';

/**
 * `demo-data <path>`: creates the demo DuckDB file unless it exists. Returns the exit code and
 * writes one line to `out`, so the same function serves the CLI and tests.
 */
export async function runDemoDataCli(
  args: readonly string[],
  out: (line: string) => void = console.log,
): Promise<number> {
  const [path, ...rest] = args;
  if (!path || rest.length > 0 || path.startsWith('-')) {
    out('usage: demo-data <path/to/demo.duckdb>   (creates the demo database unless the file exists)');
    return 2;
  }
  try {
    const { created } = await ensureDemoDatabase(path);
    out(created ? `created the demo database at ${path}` : `kept the existing database at ${path}`);
    return 0;
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    out(`${err instanceof Error ? err.message : String(err)}${cause}`);
    return 1;
  }
}

// Runnable after `npm run build`: node dist/libs/engine/src/duckdb/demo-data-cli.js <path>
if (require.main === module) {
  void runDemoDataCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
