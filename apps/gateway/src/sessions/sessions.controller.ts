import { Body, Controller, Delete, Get, Headers, HttpCode, HttpStatus, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  SESSION_ID_PATTERN,
  RunResultSchema,
  SessionPageSchema,
  SessionViewSchema,
  TraceSchema,
  sessionSummary,
  sessionView,
  type RunResult,
  type SessionPage,
  type SessionView,
} from '@nl2p/envelope';
import { NotFoundException } from '@nestjs/common';
import { CreateSessionDto, ListSessionsQuery, RunDto, SeedTurnDto, TurnDto } from './dto';
import { RunService } from './run.service';
import { TurnService } from './turn.service';
import { Tenant } from '../auth/tenant.decorator';
import { TenantLimits } from '../auth/tenant-limits.service';
import { ApiErrors, ApiView, AUTH_ERRORS, BODY_ERRORS } from '../openapi/responses';

const NOT_FOUND = { 404: 'No such session for this API key (another tenant’s is not disclosed)' } as const;
const TURN_ERRORS = {
  ...BODY_ERRORS,
  ...NOT_FOUND,
  400: 'The input does not fit the session: empty text, an unknown stream, a confirmation with no draft waiting, a stream choice while a confirmation is pending (the message says what the session waits for), edited SQL before the session has any, text over `MAX_TURN_TEXT`',
  409: 'Another turn is running (cancel it or wait), or the session reached `MAX_TURNS_PER_SESSION`',
} as const;
function checkId(id: string): string {
  // An id we could never have issued is simply not found (and never reaches Redis).
  if (!SESSION_ID_PATTERN.test(id)) throw new NotFoundException(`session ${id} not found`);
  return id;
}

@ApiTags('sessions')
@ApiErrors(AUTH_ERRORS)
@Controller('v1/sessions')
export class SessionsController {
  constructor(
    private readonly turns: TurnService,
    private readonly limits: TenantLimits,
    private readonly runs: RunService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a session (the server generates its id)' })
  @ApiView(201, SessionViewSchema, 'The new session, idle')
  @ApiErrors({ ...BODY_ERRORS, 400: 'An unknown or unconfigured target, or a bad field' })
  async create(@Body() dto: CreateSessionDto, @Tenant() tenant: string): Promise<SessionView> {
    return sessionView(await this.turns.createSession(dto, tenant));
  }

  @Get()
  @ApiOperation({
    summary: "The caller's own sessions, newest first, a page at a time",
    description:
      "Only sessions of the API key's tenant. `next_cursor` (null on the last page) is passed back as `cursor`. Expired sessions are not listed.",
  })
  @ApiView(200, SessionPageSchema, 'A page of sessions, newest first')
  @ApiErrors({ 400: 'limit out of 1–100, or a cursor this endpoint did not return' })
  async list(@Query() query: ListSessionsQuery, @Tenant() tenant: string): Promise<SessionPage> {
    const page = await this.turns.listSessions(tenant, query.limit ?? 20, query.cursor);
    return { sessions: page.sessions.map(sessionSummary), next_cursor: page.next_cursor };
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Delete a session with its events and trace',
    description: 'A running turn is cancelled first (its temporary pipelines are deleted). 404 without the session.',
  })
  @ApiResponse({ status: 204, description: 'Deleted' })
  @ApiErrors(NOT_FOUND)
  async remove(@Param('id') id: string, @Tenant() tenant: string): Promise<void> {
    await this.turns.get(checkId(id), tenant);
    await this.turns.deleteSession(id);
  }

  @Get(':id')
  @ApiOperation({ summary: "A session's current view: status, interrupt, SQL, explain, pipeline request" })
  @ApiView(200, SessionViewSchema, "The session's current view")
  @ApiErrors(NOT_FOUND)
  async get(@Param('id') id: string, @Tenant() tenant: string): Promise<SessionView> {
    return sessionView(await this.turns.get(checkId(id), tenant));
  }

  @Post(':id/turns')
  @ApiOperation({
    summary: 'Post a turn: a request, a stream choice, an answer, a confirmation, feedback or edited SQL',
    description:
      'Answers 202 with the running view, or with `wait` 200 once the turn waits for the person or ends. 409 while another turn runs.',
  })
  @ApiQuery({ name: 'wait', required: false, type: Boolean, description: 'Same as `wait` in the body' })
  @ApiView(202, SessionViewSchema, 'The turn runs: follow it over `GET /v1/sessions/{id}/events` or poll the session')
  @ApiView(
    200,
    SessionViewSchema,
    'The turn ended at once (a confirmation, a discard), or with `wait` it waits for the person or ended',
  )
  @ApiErrors(TURN_ERRORS)
  async turn(
    @Param('id') id: string,
    @Body() dto: TurnDto,
    @Query('wait') waitQuery: string | undefined,
    @Headers('traceparent') traceparent: string | undefined,
    @Res({ passthrough: true }) res: Response,
    @Tenant() tenant: string,
  ): Promise<SessionView> {
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
  @ApiView(200, SessionViewSchema, 'The session, now `cancelled`')
  @ApiErrors({ ...NOT_FOUND, 409: 'No turn is running' })
  async cancel(@Param('id') id: string, @Tenant() tenant: string): Promise<SessionView> {
    await this.turns.get(checkId(id), tenant);
    return sessionView(await this.turns.cancelTurn(id));
  }

  @Post(':id/run')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: "Run the session's answer beyond its preview (SQL targets)",
    description:
      'Runs the SQL the engine accepted in the session’s last check (no SQL is taken from the body), read-only under the preview’s guard and time limit, up to `limit` rows and never more than `RUN_ROWS_MAX`.',
  })
  @ApiView(200, RunResultSchema, 'The rows, with the limit applied and whether there were more')
  @ApiErrors({
    ...BODY_ERRORS,
    ...NOT_FOUND,
    400: 'No SQL the engine accepted in this session, a streaming target (no rows before a pipeline runs), or the database refused the query or ran past its time limit (the message says which)',
    409: 'A turn is running',
    502: 'The engine could not be reached',
  })
  async run(@Param('id') id: string, @Body() dto: RunDto, @Tenant() tenant: string): Promise<RunResult> {
    return this.runs.run(await this.turns.get(checkId(id), tenant), dto.limit);
  }

  @Get(':id/trace')
  @ApiOperation({ summary: 'Per-node records: node, start, end, latency, ok/error, attempt, LLM and engine calls' })
  @ApiQuery({ name: 'turn', required: false, type: Number, description: 'Only this turn’s records' })
  @ApiView(200, TraceSchema, 'The node runs, oldest first')
  @ApiErrors(NOT_FOUND)
  async trace(@Param('id') id: string, @Tenant() tenant: string, @Query('turn') turn?: string) {
    await this.turns.get(checkId(id), tenant);
    const turnId = turn === undefined ? undefined : Number(turn);
    return { session_id: id, records: await this.turns.trace(id, Number.isInteger(turnId) ? turnId : undefined) };
  }
}

/** The seed design's single endpoint: one call per turn, session created when absent, always waits. */
@ApiTags('seed')
@ApiErrors(AUTH_ERRORS)
@Controller('nl2pipeline')
export class SeedTurnController {
  constructor(
    private readonly turns: TurnService,
    private readonly limits: TenantLimits,
  ) {}

  @Post('turn')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Advance a session by one turn and wait for its result (seed design)' })
  @ApiView(200, SessionViewSchema, 'The session once the turn waits for the person or ends')
  @ApiErrors(TURN_ERRORS)
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
@ApiErrors(AUTH_ERRORS)
@Controller('sessions')
export class SeedTraceController {
  constructor(private readonly turns: TurnService) {}

  @Get(':id/trace')
  @ApiOperation({ summary: 'Per-node records of every turn (seed design)' })
  @ApiView(200, TraceSchema, 'The node runs, oldest first')
  @ApiErrors(NOT_FOUND)
  async trace(@Param('id') id: string, @Tenant() tenant: string) {
    await this.turns.get(checkId(id), tenant);
    return { session_id: id, records: await this.turns.trace(id) };
  }
}
