import { Body, Controller, Delete, Get, Header, HttpCode, HttpStatus, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  GlossaryEntrySchema,
  GlossaryImportResultSchema,
  GlossaryListSchema,
  type GlossaryEntry,
  type GlossaryImportResult,
  type GlossaryList,
} from '@nl2p/envelope';
import { Tenant } from '../auth/tenant.decorator';
import { ApiErrors, ApiView, AUTH_ERRORS, BODY_ERRORS } from '../openapi/responses';
import { GlossaryService } from './glossary.service';

const MEANING = { $ref: '#/components/schemas/GlossaryEntry/properties/means' };
const TERM_PARAM = { name: 'term', description: 'The term (case and spacing do not matter)' } as const;
const NOT_FOUND = { 404: "The tenant's glossary has no such term" } as const;

/**
 * The tenant's glossary: what its words mean in the data, read by every session of the tenant as
 * if the person had explained them. Another tenant's terms are never seen nor touched.
 */
@ApiTags('glossary')
@ApiErrors(AUTH_ERRORS)
@Controller('v1/glossary')
export class GlossaryController {
  constructor(private readonly glossary: GlossaryService) {}

  @Get()
  @ApiOperation({ summary: "The tenant's glossary, by term" })
  @ApiView(200, GlossaryListSchema, 'Every term with its meaning, who taught it and when')
  async list(@Tenant() tenant: string): Promise<GlossaryList> {
    return { entries: await this.glossary.list(tenant) };
  }

  @Post()
  @ApiOperation({ summary: 'Teach a term', description: '409 when the term is there already (PUT changes it).' })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['term', 'means'],
      properties: { term: { type: 'string' }, means: MEANING, created_by: { type: 'string' } },
    },
  })
  @ApiView(201, GlossaryEntrySchema, 'The new entry')
  @ApiErrors({ ...BODY_ERRORS, 409: 'The glossary has the term already' })
  create(@Tenant() tenant: string, @Body() body: unknown): Promise<GlossaryEntry> {
    return this.glossary.create(tenant, body);
  }

  @Post('remember')
  @ApiOperation({
    summary: "Keep a word explained in a session for every session (the answer to the turn's offer)",
    description: "404 when the session is not the tenant's or explained no such word.",
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['session_id', 'term'],
      properties: { session_id: { type: 'string' }, term: { type: 'string' } },
    },
  })
  @ApiView(201, GlossaryEntrySchema, 'The entry, new or changed to the session’s meaning')
  @ApiErrors({ ...BODY_ERRORS, 404: 'No such session for this tenant, or no such word explained in it' })
  remember(@Tenant() tenant: string, @Body() body: unknown): Promise<GlossaryEntry> {
    return this.glossary.remember(tenant, body);
  }

  @Get('export')
  @ApiOperation({ summary: 'The glossary as a YAML file to keep in git (meanings only)' })
  @ApiProduces('application/yaml')
  @ApiResponse({
    status: 200,
    description: 'The glossary file',
    content: { 'application/yaml': { schema: { type: 'string' } } },
  })
  @Header('content-type', 'application/yaml; charset=utf-8')
  exportFile(@Tenant() tenant: string): Promise<string> {
    return this.glossary.exportFile(tenant);
  }

  @Post('import')
  @ApiOperation({
    summary: 'Store every term of a YAML glossary file (all or none)',
    description: 'Terms absent from the file are kept. A bad file is a 400 naming its line; nothing is stored then.',
  })
  @ApiConsumes('application/yaml')
  @ApiBody({ schema: { type: 'string' } })
  @ApiView(200, GlossaryImportResultSchema, 'What changed, and the whole glossary after it')
  @ApiErrors({ 400: 'The file is not a glossary (the message names the line)', 413: BODY_ERRORS[413] })
  @HttpCode(HttpStatus.OK)
  importFile(@Tenant() tenant: string, @Body() text: unknown): Promise<GlossaryImportResult> {
    return this.glossary.importFile(tenant, text, tenant);
  }

  @Put(':term')
  @ApiOperation({ summary: "Change a term's meaning (who taught it first and when are kept)" })
  @ApiParam(TERM_PARAM)
  @ApiBody({ schema: { type: 'object', required: ['means'], properties: { means: MEANING } } })
  @ApiView(200, GlossaryEntrySchema, 'The changed entry')
  @ApiErrors({ ...BODY_ERRORS, ...NOT_FOUND })
  update(@Tenant() tenant: string, @Param('term') term: string, @Body() body: unknown): Promise<GlossaryEntry> {
    return this.glossary.update(tenant, term, body);
  }

  @Delete(':term')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Forget a term' })
  @ApiParam(TERM_PARAM)
  @ApiResponse({ status: 204, description: 'Forgotten' })
  @ApiErrors(NOT_FOUND)
  async remove(@Tenant() tenant: string, @Param('term') term: string): Promise<void> {
    await this.glossary.remove(tenant, term);
  }
}
