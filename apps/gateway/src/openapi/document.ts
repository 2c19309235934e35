import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { apiComponents } from './components';

/**
 * The gateway's OpenAPI document: operations from the controllers' decorators, response schemas
 * from the views' zod schemas. The same function serves `/openapi.json` and writes the committed
 * copy the typed client is generated from (`npm run openapi`).
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setOpenAPIVersion('3.1.0')
      .setTitle('nl2pipeline')
      .setDescription('Natural language to validated SQL and streaming pipelines')
      .setVersion('1')
      .addBearerAuth()
      .addSecurityRequirements('bearer')
      .build(),
  );
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...apiComponents() },
  };
  return document;
}
