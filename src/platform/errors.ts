/** One field-level problem of a request, `field` being the JSON path of the offending value. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * The only error a service throws on purpose. The REST error middleware turns it into
 * `{message, success:false, errors?, details?}`; the GraphQL formatter into `extensions`.
 */
export class AppError extends Error {
  readonly status: number;
  readonly errors?: FieldError[];
  readonly details?: string;
  /** Extra response headers (Retry-After on 429). */
  readonly headers?: Record<string, string>;
  /** A GraphQL code more precise than its status's (`INSUFFICIENT_SCOPE`), and what else `extensions` says. */
  readonly graphql?: { code: string; extensions: Record<string, unknown> };

  constructor(
    status: number,
    message: string,
    extra: { errors?: FieldError[]; details?: string; headers?: Record<string, string>; graphql?: AppError["graphql"] } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = status;
    this.errors = extra.errors;
    this.details = extra.details;
    this.headers = extra.headers;
    this.graphql = extra.graphql;
  }
}

export const VALIDATION_FAILED = "Validation failed";
export const ACCESS_DENIED = "Acesso negado";
export const INVALID_TOKEN = "Token inválido ou expirado";
export const TOO_MANY_REQUESTS = "Muitas requisições. Tente novamente mais tarde.";
export const REQUEST_TOO_LARGE = "Requisição muito grande";
export const INVALID_MULTIPART = "Requisição multipart inválida";

export const validationError = (errors: FieldError[], message = VALIDATION_FAILED) => new AppError(400, message, { errors });
export const invalidParameter = (name: string) => new AppError(400, `Parâmetro inválido: ${name}`);
export const unauthorized = () => new AppError(401, INVALID_TOKEN);
export const forbidden = (message = ACCESS_DENIED) => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);

/** GraphQL `extensions.code` for each status (contract §10). */
export function graphqlCodeFor(status: number): string {
  switch (status) {
    case 400:
    case 413:
      return "BAD_USER_INPUT";
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "FORBIDDEN";
    case 404:
      return "NOT_FOUND";
    case 409:
      return "CONFLICT";
    case 410:
      return "GONE";
    case 422:
      return "UNPROCESSABLE";
    case 429:
      return "TOO_MANY_REQUESTS";
    case 503:
      return "SERVICE_UNAVAILABLE";
    default:
      return "INTERNAL_SERVER_ERROR";
  }
}
