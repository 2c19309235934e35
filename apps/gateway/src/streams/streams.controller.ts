import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { StreamDescriptionSchema, StreamListSchema, TargetKind, TargetListSchema } from '@nl2p/envelope';
import { ApiErrors, ApiView, AUTH_ERRORS } from '../openapi/responses';
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
@ApiErrors(AUTH_ERRORS)
@Controller('v1/streams')
export class StreamsController {
  constructor(private readonly catalog: CatalogService) {}

  @Get()
  @ApiOperation({
    summary: "A target's streams (tables on SQL targets) with their columns",
    description: '400 for an unknown or unconfigured target; 502 when the engine cannot be read.',
  })
  @ApiQuery(TARGET_QUERY)
  @ApiView(200, StreamListSchema, "The target's streams or tables")
  @ApiErrors({ 400: 'An unknown or unconfigured target', 502: 'The engine could not be read' })
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
  @ApiView(200, StreamDescriptionSchema, 'The columns and their types')
  @ApiErrors({
    400: 'An unknown or unconfigured target, or a name over 256 characters',
    404: 'No such stream or table',
    502: 'The engine could not be read',
  })
  describe(@Param('name') name: string, @Query('target') target?: string) {
    return this.catalog.describe(this.catalog.target(target), name);
  }
}

/** The targets this deployment can reach, so a client offers only those (and names them right). */
@ApiTags('streams')
@ApiErrors(AUTH_ERRORS)
@Controller('v1/targets')
export class TargetsController {
  constructor(private readonly catalog: CatalogService) {}

  @Get()
  @ApiOperation({
    summary: 'The targets configured here, the default first',
    description:
      'Each target is read once (3 s at most): one whose engine does not answer is listed with `reachable: false` and `problem` naming the setting to fix.',
  })
  @ApiView(200, TargetListSchema, 'The configured targets')
  list() {
    return this.catalog.targets();
  }
}
