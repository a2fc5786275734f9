/**
 * Error responses. The body shape `{"error":{"message","type","code"}}` is the emulator's choice:
 * the spec does not show the real service's error body.
 */

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'insufficient_credits'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'server_error'
  | 'service_unavailable';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  toBody(): { error: { message: string; type: ErrorType; code: string } } {
    return { error: { message: this.message, type: this.type, code: this.code } };
  }
}

export function badRequest(code: string, message: string): ApiError {
  return new ApiError(400, 'invalid_request_error', code, message);
}

export function unauthorized(code: string, message: string): ApiError {
  return new ApiError(401, 'authentication_error', code, message);
}

export function notFound(code: string, message: string): ApiError {
  return new ApiError(404, 'not_found_error', code, message);
}
