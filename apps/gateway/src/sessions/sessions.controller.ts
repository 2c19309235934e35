import { Body, Controller, Delete, Get, Headers, HttpCode, HttpStatus, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { SESSION_ID_PATTERN, sessionSummary, sessionView } from '@nl2p/envelope';
import { NotFoundException } from '@nestjs/common';
import { CreateSessionDto, ListSessionsQuery, SeedTurnDto, TurnDto } from './dto';
import { TurnService } from './turn.service';
import { Tenant } from '../auth/tenant.decorator';
import { TenantLimits } from '../auth/tenant-limits.service';

function checkId(id: string): string {
  // An id we could never have issued is simply not found (and never reaches Redis).
  if (!SESSION_ID_PATTERN.test(id)) throw new NotFoundException(`session ${id} not found`);
  return id;
}

@ApiTags('sessions')
@Controller('v1/sessions')
export class SessionsController {
  constructor(
    private readonly turns: TurnService,
    private readonly limits: TenantLimits,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a session (the server generates its id)' })
  async create(@Body() dto: CreateSessionDto, @Tenant() tenant: string) {
    return sessionView(await this.turns.createSession(dto, tenant));
  }

  @Get()
  @ApiOperation({
    summary: "The caller's own sessions, newest first, a page at a time",
    description:
      "Only sessions of the API key's tenant. `next_cursor` (null on the last page) is passed back as `cursor`. Expired sessions are not listed.",
  })
  async list(@Query() query: ListSessionsQuery, @Tenant() tenant: string) {
    const page = await this.turns.listSessions(tenant, query.limit ?? 20, query.cursor);
    return { sessions: page.sessions.map(sessionSummary), next_cursor: page.next_cursor };
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Delete a session with its events and trace',
    description: 'A running turn is cancelled first (its temporary pipelines are deleted). 404 without the session.',
  })
  async remove(@Param('id') id: string, @Tenant() tenant: string): Promise<void> {
    await this.turns.get(checkId(id), tenant);
    await this.turns.deleteSession(id);
  }

  @Get(':id')
  @ApiOperation({ summary: "A session's current view: status, interrupt, SQL, explain, pipeline request" })
  async get(@Param('id') id: string, @Tenant() tenant: string) {
    return sessionView(await this.turns.get(checkId(id), tenant));
  }

  @Post(':id/turns')
  @ApiOperation({
    summary: 'Post a turn: a request, a stream choice, an answer, a confirmation or feedback',
    description:
      'Answers 202 with the running view, or with `wait` 200 once the turn waits for the person or ends. 409 while another turn runs.',
  })
  async turn(
    @Param('id') id: string,
    @Body() dto: TurnDto,
    @Query('wait') waitQuery: string | undefined,
    @Headers('traceparent') traceparent: string | undefined,
    @Res({ passthrough: true }) res: Response,
    @Tenant() tenant: string,
  ) {
    const read = await this.turns.readForTurn(checkId(id), tenant);
    await this.limits.admitTurn(read.current, dto);
    const { envelope, fromTurnEndId, span } = await this.turns.startTurn(id, dto, { traceparent }, read);
    try {
      const wait = dto.wait ?? (waitQuery === 'true' || waitQuery === '1');
      if (!wait || envelope.status !== 'running') {
        res.status(envelope.status === 'running' ? HttpStatus.ACCEPTED : HttpStatus.OK);
        return sessionView(envelope);
      }
      res.status(HttpStatus.OK);
      return sessionView(await this.turns.waitForTurn(id, envelope.turn_id, fromTurnEndId, dto.timeout_ms));
    } finally {
      span.end();
    }
  }

  @Post(':id/turns/current/cancel')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Cancel the running turn',
    description:
      'The session becomes `cancelled` at once and a new turn may start right away; the running node stops at its next boundary and temporary pipelines are deleted. SSE clients get `turn_end` with status `cancelled`. 404 without the session, 409 when no turn runs.',
  })
  async cancel(@Param('id') id: string, @Tenant() tenant: string) {
    await this.turns.get(checkId(id), tenant);
    return sessionView(await this.turns.cancelTurn(id));
  }

  @Get(':id/trace')
  @ApiOperation({ summary: 'Per-node records: node, start, end, latency, ok/error, attempt, LLM and engine calls' })
  async trace(@Param('id') id: string, @Tenant() tenant: string, @Query('turn') turn?: string) {
    await this.turns.get(checkId(id), tenant);
    const turnId = turn === undefined ? undefined : Number(turn);
    return { session_id: id, records: await this.turns.trace(id, Number.isInteger(turnId) ? turnId : undefined) };
  }
}

/** The seed design's single endpoint: one call per turn, session created when absent, always waits. */
@ApiTags('seed')
@Controller('nl2pipeline')
export class SeedTurnController {
  constructor(
    private readonly turns: TurnService,
    private readonly limits: TenantLimits,
  ) {}

  @Post('turn')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Advance a session by one turn and wait for its result (seed design)' })
  async turn(
    @Body() dto: SeedTurnDto,
    @Headers('traceparent') traceparent: string | undefined,
    @Tenant() tenant: string,
  ) {
    const { session_id, ...turn } = dto;
    // A new session when none is named; either way read with the turn-end cursor in one go.
    const created = session_id ? undefined : await this.turns.createSession({}, tenant);
    const read = await this.turns.readForTurn(created?.session_id ?? checkId(session_id ?? ''), tenant, created);
    const id = read.current.session_id;
    await this.limits.admitTurn(read.current, turn);
    const { envelope, fromTurnEndId, span } = await this.turns.startTurn(id, turn, { traceparent }, read);
    try {
      if (envelope.status !== 'running') return sessionView(envelope);
      return sessionView(await this.turns.waitForTurn(id, envelope.turn_id, fromTurnEndId, turn.timeout_ms));
    } finally {
      span.end();
    }
  }
}

/** The seed's unversioned trace path. */
@ApiTags('seed')
@Controller('sessions')
export class SeedTraceController {
  constructor(private readonly turns: TurnService) {}

  @Get(':id/trace')
  async trace(@Param('id') id: string, @Tenant() tenant: string) {
    await this.turns.get(checkId(id), tenant);
    return { session_id: id, records: await this.turns.trace(id) };
  }
}
