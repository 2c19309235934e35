import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { createLogger, type AppConfig } from '@nl2p/config';
import { GatewayModule } from './app.module';

/** Builds the gateway (used by main.ts and by tests, so both run the same app). */
export async function createGatewayApp(config: AppConfig, logger = createLogger(config, 'gateway')) {
  const app = await NestFactory.create<NestExpressApplication>(GatewayModule.forRoot(config), { logger });
  app.useBodyParser('json', { limit: '64kb' });
  app.enableShutdownHooks();
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('nl2pipeline')
      .setDescription('Natural language to validated streaming SQL pipelines')
      .setVersion('1')
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json' });
  return app;
}
