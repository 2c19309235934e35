import { Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { text } from 'express';
import type { Redis } from 'ioredis';
import { ExampleStore, GlossaryStore, RedisKeys } from '@nl2p/session-store';
import { REDIS } from '@nl2p/workflow-runtime';
import { CatalogModule } from '../streams/catalog.module';
import { ExamplesController } from '../examples/examples.controller';
import { GlossaryController } from './glossary.controller';
import { GlossaryService } from './glossary.service';

/** A glossary file is a few hundred terms at most: far below this. */
const MAX_FILE_BYTES = 1024 * 1024;
const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml', 'text/plain'];

/** The tenant's glossary and confirmed questions (REST), and the stores the turn service reads it from at each turn's start. */
@Module({
  imports: [CatalogModule],
  controllers: [GlossaryController, ExamplesController],
  providers: [
    GlossaryService,
    {
      provide: GlossaryStore,
      inject: [REDIS, RedisKeys],
      useFactory: (r: Redis, k: RedisKeys) => new GlossaryStore(r, k),
    },
    // The tenant's confirmed questions, kept by the turn service beside the glossary's terms.
    {
      provide: ExampleStore,
      inject: [REDIS, RedisKeys],
      useFactory: (r: Redis, k: RedisKeys) => new ExampleStore(r, k),
    },
  ],
  exports: [GlossaryStore, ExampleStore],
})
export class GlossaryModule implements NestModule {
  // Only the import reads a YAML body; every other route keeps the JSON-only parser.
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(text({ type: YAML_TYPES, limit: MAX_FILE_BYTES })).forRoutes('v1/glossary/import');
  }
}
