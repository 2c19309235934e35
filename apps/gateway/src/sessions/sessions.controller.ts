import { Body, Controller, Get, Headers, HttpCode, HttpStatus, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { SESSION_ID_PATTERN } from '@nl2p/envelope';
import { NotFoundException } from '@nestjs/common';
import { CreateSessionDto, SeedTurnDto, TurnDto } from './dto';
import { sessionView } from './session-view';
import { TurnService } from './turn.service';

function checkId(id: string): string {
  // An id we could never have issued is simply not found (and never reaches Redis).
  if (!SESSION_ID_PATTERN.test(id)) throw new NotFoundException(`session ${id} not found`);
  return id;
}

@ApiTags('sessions')
@Controller('v1/sessions')
export class SessionsController {
  constructor(private readonly turns: TurnService) {}

  @Post()
  @ApiOperation({ summary: 'Create a session (the server generates its id)' })
  async create(@Body() dto: CreateSessionDto) {
    return sessionView(await this.turns.createSession(dto));
  }

  @Get(':id')
  @ApiOperation({ summary: "A session's current view: status, interrupt, SQL, explain, pipeline request" })
  async get(@Param('id') id: string) {
    return sessionView(await this.turns.get(checkId(id)));
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
  ) {
    const { envelope, fromEventId, span } = await this.turns.startTurn(checkId(id), dto, { traceparent });
    try {
      const wait = dto.wait ?? (waitQuery === 'true' || waitQuery === '1');
      if (!wait || envelope.status !== 'running') {
        res.status(envelope.status === 'running' ? HttpStatus.ACCEPTED : HttpStatus.OK);
        return sessionView(envelope);
      }
      res.status(HttpStatus.OK);
      return sessionView(await this.turns.waitForTurn(id, envelope.turn_id, fromEventId, dto.timeout_ms));
    } finally {
      span.end();
    }
  }

  @Get(':id/trace')
  @ApiOperation({ summary: 'Per-node records: node, start, end, latency, ok/error, attempt, LLM and engine calls' })
  async trace(@Param('id') id: string, @Query('turn') turn?: string) {
    await this.turns.get(checkId(id));
    const turnId = turn === undefined ? undefined : Number(turn);
    return { session_id: id, records: await this.turns.trace(id, Number.isInteger(turnId) ? turnId : undefined) };
  }
}

/** The seed design's single endpoint: one call per turn, session created when absent, always waits. */
@ApiTags('seed')
@Controller('nl2pipeline')
export class SeedTurnController {
  constructor(private readonly turns: TurnService) {}

  @Post('turn')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Advance a session by one turn and wait for its result (seed design)' })
  async turn(@Body() dto: SeedTurnDto, @Headers('traceparent') traceparent: string | undefined) {
    const { session_id, ...turn } = dto;
    const id = session_id ? checkId(session_id) : (await this.turns.createSession({})).session_id;
    const { envelope, fromEventId, span } = await this.turns.startTurn(id, turn, { traceparent });
    try {
      if (envelope.status !== 'running') return sessionView(envelope);
      return sessionView(await this.turns.waitForTurn(id, envelope.turn_id, fromEventId, turn.timeout_ms));
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
  async trace(@Param('id') id: string) {
    await this.turns.get(checkId(id));
    return { session_id: id, records: await this.turns.trace(id) };
  }
}
