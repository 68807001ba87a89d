/**
 * What a user is told when the upstream provider behind a gateway model fails. Every failure becomes
 * an EngineError (the generation fails and is refunded); the provider's own words are kept where they
 * help (a rejected prompt, a failed generation), credentials and account details are not exposed.
 */
import {
  ForbiddenError,
  GenerationFailedError,
  MediaGenError,
  NetworkError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
  WaitTimeoutError,
} from '@mediagen/core';
import { EngineError } from '../types.js';

export function upstreamError(error: unknown, timeoutSeconds: number): EngineError {
  if (error instanceof EngineError) return error;
  if (error instanceof GenerationFailedError) {
    const reason = error.generation.error_message;
    return new EngineError(`the upstream provider's generation failed${reason ? `: ${reason}` : ''}`);
  }
  if (error instanceof WaitTimeoutError) {
    return new EngineError(`the upstream provider did not finish within ${timeoutSeconds} s`);
  }
  if (error instanceof ValidationError)
    return new EngineError(`the upstream provider rejected the request: ${error.message}`);
  if (error instanceof UnauthorizedError || error instanceof ForbiddenError) {
    return new EngineError(
      'the upstream provider refused this server’s credentials (operator: check the API key)',
    );
  }
  if (error instanceof PaymentRequiredError) {
    return new EngineError('the upstream provider account has insufficient credit (operator: top it up)');
  }
  if (error instanceof NotFoundError) {
    return new EngineError(
      'the upstream provider does not offer this model or task (operator: check engine_options)',
    );
  }
  if (error instanceof RateLimitedError)
    return new EngineError('the upstream provider is rate limiting requests; try again later');
  if (error instanceof NetworkError) return new EngineError('the upstream provider could not be reached');
  if (error instanceof MediaGenError)
    return new EngineError(`the upstream provider failed: ${error.message}`);
  return new EngineError('the upstream provider failed');
}
