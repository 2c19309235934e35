import { Module } from '@nestjs/common';
import { CatalogService } from './catalog.service';

/** The engines' catalogs, one instance for the streams endpoints and the glossary's checks. */
@Module({ providers: [CatalogService], exports: [CatalogService] })
export class CatalogModule {}
