import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter, type HttpServer } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Response } from 'express';

/** What body-parser throws (Nest keeps it as the `cause` of the HttpException it maps it to). */
interface BodyParserError {
  type?: unknown;
  message?: string;
}

/**
 * Says plainly what was wrong with a request body that could not be read (too large, not JSON,
 * unsupported charset) instead of body-parser's terse text; everything else goes to Nest's
 * default handling.
 */
@Catch()
export class BodyErrorFilter extends BaseExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly maxBytes: number,
    adapter: HttpServer,
  ) {
    super(adapter);
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    const cause = exception instanceof HttpException ? (exception.cause as BodyParserError | undefined) : undefined;
    const type = typeof cause?.type === 'string' ? cause.type : undefined;
    if (exception instanceof HttpException && type) {
      const status = exception.getStatus();
      const message =
        type === 'entity.too.large'
          ? `request body is larger than the limit of ${this.maxBytes} bytes`
          : type === 'entity.parse.failed'
            ? `request body is not valid JSON (${cause?.message ?? 'parse error'})`
            : `request body could not be read (${type})`;
      host.switchToHttp().getResponse<Response>().status(status).json({ statusCode: status, error: type, message });
      return;
    }
    super.catch(exception, host);
  }
}
