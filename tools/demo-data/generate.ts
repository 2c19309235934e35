// Creates the demo DuckDB database (sensor_readings, devices, orders, customers) unless the file
// exists. The logic lives in the engine lib so the built app can run it too:
//   npm run build && node dist/libs/engine/src/duckdb/demo-data-cli.js data/demo.duckdb
// This entry is for TypeScript-aware runners and tests; it takes the same single path argument.
import { runDemoDataCli } from '../../libs/engine/src/duckdb/demo-data-cli';

export { runDemoDataCli };

if (require.main === module) {
  void runDemoDataCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
