import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { loadConfig } from '@nl2p/config';
import { GatewayModule } from '../app.module';
import { buildOpenApiDocument } from './document';

/**
 * The document without a running gateway: Nest's preview mode reads the controllers' metadata
 * and instantiates no provider, so neither Redis nor an engine is needed. Settings do not change
 * the document (only which routes exist, and every route always exists).
 */
export async function previewOpenApiDocument(): Promise<OpenAPIObject> {
  const config = loadConfig({ AUTH_DISABLED: 'true' });
  const app = await NestFactory.create(GatewayModule.forRoot(config), { preview: true, logger: false });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
