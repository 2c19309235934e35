import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { TargetKind } from '@nl2p/envelope';
import { CatalogService } from './catalog.service';

const TARGET_QUERY = {
  name: 'target',
  required: false,
  enum: TargetKind.options,
  description: "Which engine's catalog (the server's default target when absent)",
} as const;

/**
 * The engines' streams (tables on SQL targets) without a session. Streams belong to the engine,
 * not to a tenant: every authenticated caller sees the same catalog.
 */
@ApiTags('streams')
@Controller('v1/streams')
export class StreamsController {
  constructor(private readonly catalog: CatalogService) {}

  @Get()
  @ApiOperation({
    summary: "A target's streams (tables on SQL targets) with their columns",
    description: '400 for an unknown or unconfigured target; 502 when the engine cannot be read.',
  })
  @ApiQuery(TARGET_QUERY)
  @ApiResponse({ status: 200, description: '`{target, source_noun, streams: [{name, columns: [{name, data_type}]}]}`' })
  list(@Query('target') target?: string) {
    return this.catalog.list(this.catalog.target(target));
  }

  @Get(':name')
  @ApiOperation({
    summary: "One stream's (or table's) columns and types",
    description: '404 when the target has no such stream; 502 when the engine cannot be read.',
  })
  @ApiParam({ name: 'name', description: 'Stream or table name' })
  @ApiQuery(TARGET_QUERY)
  describe(@Param('name') name: string, @Query('target') target?: string) {
    return this.catalog.describe(this.catalog.target(target), name);
  }
}

/** The targets this deployment can reach, so a client offers only those (and names them right). */
@ApiTags('streams')
@Controller('v1/targets')
export class TargetsController {
  constructor(private readonly catalog: CatalogService) {}

  @Get()
  @ApiOperation({ summary: 'The targets a session may choose here, the default first' })
  @ApiResponse({
    status: 200,
    description: '`{default, targets: [{kind, label, source_noun, streaming}]}`',
  })
  list() {
    return this.catalog.targets();
  }
}
