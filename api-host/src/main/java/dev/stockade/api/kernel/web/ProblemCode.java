package dev.stockade.api.kernel.web;

import io.micronaut.http.HttpStatus;

/**
 * Every error the platform answers with, its HTTP status and its problem type slug. The one list: a test checks that
 * codes and slugs are unique and that docs/api-problems.md documents each one.
 */
public enum ProblemCode {
    BAD_REQUEST(HttpStatus.BAD_REQUEST, "bad-request", "Bad request"),
    MALFORMED_JSON(HttpStatus.BAD_REQUEST, "malformed-json", "Malformed JSON body"),
    VALIDATION_FAILED(HttpStatus.BAD_REQUEST, "validation-failed", "Validation failed"),
    INVALID_PARAMETER(HttpStatus.BAD_REQUEST, "invalid-parameter", "Invalid parameter"),
    UNSUPPORTED_GRANT_TYPE(HttpStatus.BAD_REQUEST, "unsupported-grant-type", "Unsupported grant type"),
    UNAUTHENTICATED(HttpStatus.UNAUTHORIZED, "unauthenticated", "Authentication required"),
    FORBIDDEN(HttpStatus.FORBIDDEN, "forbidden", "Forbidden"),
    EMAIL_NOT_VERIFIED(HttpStatus.FORBIDDEN, "email-not-verified", "Email address not verified"),
    DIRECT_ACCESS_DENIED(HttpStatus.FORBIDDEN, "direct-access-denied", "Direct access denied"),
    SETUP_CODE_INVALID(HttpStatus.FORBIDDEN, "setup-code-invalid", "Setup code invalid"),
    NOT_FOUND(HttpStatus.NOT_FOUND, "not-found", "Not found"),
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "method-not-allowed", "Method not allowed"),
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, "not-acceptable", "Not acceptable"),
    CONFLICT(HttpStatus.CONFLICT, "conflict", "Conflict"),
    DEPENDANTS_EXIST(HttpStatus.CONFLICT, "dependants-exist", "Blocked by dependants"),
    PAYLOAD_TOO_LARGE(HttpStatus.REQUEST_ENTITY_TOO_LARGE, "payload-too-large", "Payload too large"),
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", "Unsupported media type"),
    HEADERS_TOO_LARGE(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "headers-too-large", "Request header fields too large"),
    TOO_MANY_ATTEMPTS(HttpStatus.TOO_MANY_REQUESTS, "too-many-attempts", "Too many attempts"),
    INTERNAL(HttpStatus.INTERNAL_SERVER_ERROR, "internal", "Internal error"),
    UPSTREAM_FAILED(HttpStatus.BAD_GATEWAY, "upstream-failed", "Upstream failed"),
    FLEET_ENROLLMENT_REQUIRED(HttpStatus.SERVICE_UNAVAILABLE, "fleet-enrollment-required", "Fleet enrollment required"),
    FLEET_ENROLLMENT_REVOKED(HttpStatus.SERVICE_UNAVAILABLE, "fleet-enrollment-revoked", "Fleet enrollment revoked"),

    // k8s slice: the cluster proxy
    HALTED(HttpStatus.FORBIDDEN, "halted", "Organization halted"),
    CLUSTER_UNREACHABLE(HttpStatus.BAD_GATEWAY, "cluster-unreachable", "Cluster unreachable"),

    // the sandbox ingress (exposed ports)
    SANDBOX_NOT_RUNNING(HttpStatus.SERVICE_UNAVAILABLE, "sandbox-not-running", "Sandbox not running"),
    PORT_UNREACHABLE(HttpStatus.BAD_GATEWAY, "port-unreachable", "Port unreachable"),

    // spend: a metered model call refused by a spending limit (the /llm/* routes; spec: Errors, 429)
    SPENDING_LIMIT_REACHED(HttpStatus.TOO_MANY_REQUESTS, "spending-limit-reached", "Spending limit reached"),

    // managed inference (the /llm/* routes; spec: Errors 404, 503)
    INFERENCE_NOT_AVAILABLE(HttpStatus.NOT_FOUND, "inference-not-available", "Inference backend not available"),
    PII_MASKING_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "pii-masking-unavailable", "PII masking unavailable"),
    SECRETS_UNREADABLE(HttpStatus.SERVICE_UNAVAILABLE, "secrets-unreadable", "Secrets unreadable"),
    // realtime voice: eight sessions per project per replica (spec: Limits)
    REALTIME_SESSIONS_EXHAUSTED(HttpStatus.TOO_MANY_REQUESTS, "realtime-sessions-exhausted",
            "Realtime sessions exhausted");

    private final HttpStatus status;
    private final String slug;
    private final String title;

    ProblemCode(HttpStatus status, String slug, String title) {
        this.status = status;
        this.slug = slug;
        this.title = title;
    }

    public HttpStatus status() {
        return status;
    }

    /** The last segment of the problem type URI, {@code {problem_base}/<slug>}. */
    public String slug() {
        return slug;
    }

    public String title() {
        return title;
    }

    /** The machine code in the body's {@code code} member, for example {@code fleet_enrollment_required}. */
    public String code() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The code a bare status falls back to when a framework error carries nothing more specific. */
    public static ProblemCode forStatus(int status) {
        return switch (status) {
            case 400 -> BAD_REQUEST;
            case 401 -> UNAUTHENTICATED;
            case 403 -> FORBIDDEN;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 409 -> CONFLICT;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 429 -> TOO_MANY_ATTEMPTS;
            case 431 -> HEADERS_TOO_LARGE;
            case 502 -> UPSTREAM_FAILED;
            default -> status >= 500 ? INTERNAL : BAD_REQUEST;
        };
    }
}
