import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { TargetKind } from '@nl2p/envelope';
import { SESSION_CURSOR_PATTERN } from '@nl2p/session-store';

/** Hard cap of the DTO; the configured limit (MAX_TURN_TEXT) is checked by the turn service. */
export const MAX_TURN_TEXT = 20_000;

export class SinkDto {
  @ApiPropertyOptional({ example: 'mqtt' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  type!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { broker_url: 'tcp://broker:1883', topic: 'alerts', qos: 1 },
  })
  @IsOptional()
  @IsObject()
  props?: Record<string, unknown>;
}

export class CreateSessionDto {
  @ApiPropertyOptional({ enum: TargetKind.options })
  @IsOptional()
  @IsIn(TargetKind.options)
  target?: TargetKind;

  @ApiPropertyOptional({
    enum: ['all'],
    description:
      'Address every configured SQL source at once (tables named source.table): a question is split into parts run where their data lives and joined in DuckDB',
  })
  @IsOptional()
  @IsIn(['all'])
  sources?: 'all';

  @ApiPropertyOptional({ description: 'Stream to use from the start' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  stream?: string;

  @ApiPropertyOptional({ type: SinkDto, description: 'Sink of the final pipeline request (default from config)' })
  @IsOptional()
  @ValidateNested()
  @Type(() => SinkDto)
  sink?: SinkDto;

  @ApiPropertyOptional({ minimum: 1, maximum: 10 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10)
  max_attempts?: number;

  @ApiPropertyOptional({ description: 'Id of the final pipeline (REPLACE_ME when absent)' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{1,128}$/, { message: 'pipeline_id may hold letters, digits, _ . - (1 to 128)' })
  pipeline_id?: string;
}

export class TurnDto {
  @ApiPropertyOptional({ description: 'A request, or the answer to a pending question', maxLength: MAX_TURN_TEXT })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TURN_TEXT)
  text?: string;

  @ApiPropertyOptional({ description: 'Accept (true) or discard (false) the draft waiting for confirmation' })
  @IsOptional()
  @IsBoolean()
  confirm?: boolean;

  @ApiPropertyOptional({
    description: 'What to change in the draft waiting for confirmation',
    maxLength: MAX_TURN_TEXT,
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TURN_TEXT)
  feedback?: string;

  @ApiPropertyOptional({
    description:
      "SQL the person edited in place of the session's draft: checked by the same read-only guard, local check and engine validation as a draft (never repaired by a model; a failure is said as it is)",
    maxLength: MAX_TURN_TEXT,
    example: 'SELECT device_id, avg(temperature) AS avg_temp FROM sensor_readings GROUP BY device_id',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TURN_TEXT)
  sql?: string;

  @ApiPropertyOptional({ description: 'A stream choice (answer to need_stream, or the stream for this request)' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  stream?: string;

  @ApiPropertyOptional({ description: 'Hold the response until the turn waits for the person or ends' })
  @IsOptional()
  @IsBoolean()
  wait?: boolean;

  @ApiPropertyOptional({ description: 'Longest wait in ms (wait mode)', minimum: 1, maximum: 600000 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(600_000)
  timeout_ms?: number;
}

export class SeedTurnDto extends TurnDto {
  @ApiPropertyOptional({ description: 'Continue this session; a new one is created when absent' })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-f]{32}$/, { message: 'session_id must be 32 lowercase hex characters' })
  session_id?: string;
}

export class ListSessionsQuery {
  @ApiPropertyOptional({ description: 'Sessions per page', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: '`next_cursor` of the previous page' })
  @IsOptional()
  @IsString()
  @Matches(SESSION_CURSOR_PATTERN, { message: 'cursor must be a next_cursor this endpoint returned' })
  cursor?: string;
}

export class RunDto {
  @ApiPropertyOptional({
    description: 'Most rows to return (default 1000); the server applies at most `RUN_ROWS_MAX`',
    minimum: 1,
    maximum: 100_000,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100_000)
  limit?: number;
}
