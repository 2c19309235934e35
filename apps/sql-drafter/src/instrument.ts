// Imported first by main.ts: tracing must be set up before anything else loads.
import { startTelemetry } from '@nl2p/telemetry';

startTelemetry('sql-drafter', process.env);
