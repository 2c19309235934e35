import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { assertAuthConfigured, createLogger, type AppConfig } from '@nl2p/config';
import { GatewayModule } from './app.module';
import { BodyErrorFilter } from './http/body-error.filter';
import { serveConsole } from './console/serve-console';
import { buildOpenApiDocument } from './openapi/document';

/** Builds the gateway (used by main.ts and by tests, so both run the same app). */
export async function createGatewayApp(config: AppConfig, logger = createLogger(config, 'gateway')) {
  assertAuthConfigured(config);
  const app = await NestFactory.create<NestExpressApplication>(GatewayModule.forRoot(config), {
    logger,
    // Off by default; only the configured origins may call from a browser.
    cors: config.cors.origins.length ? { origin: config.cors.origins, credentials: false } : false,
  });
  app.use(helmet());
  app.useBodyParser('json', { limit: config.limits.maxBodyBytes });
  app.useGlobalFilters(new BodyErrorFilter(config.limits.maxBodyBytes, app.getHttpAdapter()));
  app.enableShutdownHooks();
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json' });
  serveConsole(app, logger);
  return app;
}
