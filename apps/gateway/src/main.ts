import './instrument';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createLogger, loadConfig } from '@nl2p/config';
import { setServiceLabel } from '@nl2p/metrics';
import { exitAfterShutdownGrace, untilRedisAnswers } from '@nl2p/workflow-runtime';
import { createGatewayApp } from './create-app';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  setServiceLabel('gateway');
  const logger = createLogger(config, 'gateway');
  if (!(await untilRedisAnswers(config, logger))) process.exit(0);
  const app = await createGatewayApp(config, logger);
  exitAfterShutdownGrace(config, logger);
  await app.listen(config.gateway.port, config.gateway.host);
  new Logger('gateway').log(`listening on ${await app.getUrl()} (OpenAPI at /openapi.json, docs at /docs)`);
}

main().catch((err: unknown) => {
  // Config errors list every bad key; print them plainly and exit non-zero.
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
