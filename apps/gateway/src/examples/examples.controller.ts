import { Controller, Delete, Get, HttpCode, HttpStatus, NotFoundException, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ExampleListSchema, type ExampleList } from '@nl2p/envelope';
import { ExampleStore, exampleId } from '@nl2p/session-store';
import { Tenant } from '../auth/tenant.decorator';
import { ApiErrors, ApiView, AUTH_ERRORS } from '../openapi/responses';

/**
 * The tenant's confirmed questions (kept when a turn is confirmed): listed, and forgotten one by
 * one, so a question confirmed by mistake is neither shown beside new requests nor reused. Another
 * tenant's examples are never seen nor touched (its ids are "not found" here).
 */
@ApiTags('examples')
@ApiErrors(AUTH_ERRORS)
@Controller('v1/examples')
export class ExamplesController {
  constructor(private readonly examples: ExampleStore) {}

  @Get()
  @ApiOperation({ summary: "The tenant's confirmed questions with their SQL, newest first" })
  @ApiView(200, ExampleListSchema, 'Every confirmed question, with the id to forget it by')
  async list(@Tenant() tenant: string): Promise<ExampleList> {
    const all = await this.examples.list(tenant);
    return {
      examples: all.map((e) => ({
        id: exampleId(e.request),
        request: e.request,
        sql: e.sql,
        target: e.target,
        reusable: e.plan !== null,
        confirmed_at: e.confirmed_at,
      })),
    };
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Forget a confirmed question' })
  @ApiParam({ name: 'id', description: 'The id `GET /v1/examples` gives' })
  @ApiResponse({ status: 204, description: 'Forgotten' })
  @ApiErrors({ 404: 'The tenant has no example with this id' })
  async remove(@Tenant() tenant: string, @Param('id') id: string): Promise<void> {
    if (!(await this.examples.remove(tenant, id))) throw new NotFoundException(`no example ${id}`);
  }
}
