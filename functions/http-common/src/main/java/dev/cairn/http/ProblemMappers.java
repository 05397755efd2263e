package dev.cairn.http;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.PropertyBindingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.cairn.model.error.CairnException;
import dev.cairn.model.error.ContentTooLarge;
import dev.cairn.model.error.EmbeddingModelMismatch;
import dev.cairn.model.error.FieldError;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.NotFound;
import dev.cairn.model.error.PreconditionRequired;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.error.TeamAccessDenied;
import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.session.SessionEnded;
import dev.cairn.model.session.SessionExists;
import dev.cairn.model.sync.ConflictNotOpen;
import dev.cairn.model.sync.SyncedFactMemory;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one place where known errors become problem+json. An unknown exception is still a 500 — logged in full with an
 * error id, counted by API Gateway's and the load balancer's 5xx metrics and alarms — but its body is problem+json too,
 * naming the error id and never the stack. A full disk is an outage, not a bug: 503 with {@code Retry-After}.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    /** How long a client should wait after the storage filled up: long enough for an operator to free space. */
    static final long DISK_FULL_RETRY_SECONDS = 30;

    @ServerExceptionMapper
    public Response domain(CairnException e) {
        int status = statusOf(e);
        if (e instanceof StoreUnavailable su) {
            return Response.status(503)
                    .type(Problem.MEDIA_TYPE)
                    .header(HttpHeaders.RETRY_AFTER, Math.max(1, su.retryAfter().toSeconds()))
                    .entity(Problem.of(e.kind(), e.title(), 503, e.detail()))
                    .build();
        }
        return problem(Problem.of(e, status));
    }

    @ServerExceptionMapper
    public Response unexpected(RuntimeException e) {
        String id = UUID.randomUUID().toString();
        if (diskFull(e)) {
            LOG.errorf(e, "storage full [error id %s]", id);
            return Response.status(503)
                    .type(Problem.MEDIA_TYPE)
                    .header(HttpHeaders.RETRY_AFTER, DISK_FULL_RETRY_SECONDS)
                    .entity(Problem.of(
                            "service-unavailable",
                            "Service unavailable",
                            503,
                            "the server's storage is full, so the request was not carried out; retry in "
                                    + DISK_FULL_RETRY_SECONDS + " s (error id " + id + ")"))
                    .build();
        }
        LOG.errorf(e, "unexpected error [error id %s]", id);
        return problem(Problem.of(
                "internal-error",
                "Internal Server Error",
                500,
                "the server failed to carry out the request; error id " + id + " (in the server's log)"));
    }

    /**
     * Whether the failure comes from a full disk: the OS's ENOSPC text, or SQLite's SQLITE_FULL (result code 13).
     */
    static boolean diskFull(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            String m = c.getMessage() == null ? "" : c.getMessage();
            if (m.contains("No space left on device")
                    || m.contains("SQLITE_FULL")
                    || m.contains("database or disk is full")
                    || c instanceof java.sql.SQLException sql && sql.getErrorCode() == 13) {
                return true;
            }
        }
        return false;
    }

    public static int statusOf(CairnException e) {
        if (e instanceof InvalidInput) {
            return 400;
        } else if (e instanceof TeamAccessDenied) {
            return 403;
        } else if (e instanceof NotFound) {
            return 404;
        } else if (e instanceof EmbeddingModelMismatch
                || e instanceof SessionEnded
                || e instanceof SessionExists
                || e instanceof SyncedFactMemory
                || e instanceof ConflictNotOpen) {
            return 409;
        } else if (e instanceof VersionConflict) {
            return 412;
        } else if (e instanceof ContentTooLarge) {
            return 413;
        } else if (e instanceof PreconditionRequired) {
            return 428;
        } else if (e instanceof StoreUnavailable) {
            return 503;
        }
        return 422;
    }

    @ServerExceptionMapper
    public Response unauthenticated(Unauthenticated e) {
        return Response.status(401)
                .type(Problem.MEDIA_TYPE)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .entity(Problem.of("unauthenticated", "Unauthenticated", 401, e.getMessage()))
                .build();
    }

    @ServerExceptionMapper
    public Response unknownField(UnrecognizedPropertyException e) {
        return problem(bindingProblem(e, ""));
    }

    @ServerExceptionMapper
    public Response wrongType(MismatchedInputException e) {
        return problem(bindingProblem(e, ""));
    }

    /**
     * The problem a body that JSON-binding refused gets — an unknown field, a field {@link NotAccepted} here, a value of
     * the wrong type — with its field path after {@code prefix}: a batch reports it for the one item it concerns
     * ({@code memories[2]}) instead of failing the others.
     */
    public static Problem bindingProblem(MismatchedInputException e, String prefix) {
        String inner = path(e);
        String field = prefix.isEmpty() ? inner : inner.isEmpty() ? prefix : prefix + "." + inner;
        if (e instanceof PropertyBindingException u) {
            // an unknown field, or one the body type keeps for itself (@JsonIgnore, refused by
            // FAIL_ON_IGNORED_PROPERTIES): neither is something a caller may send, so neither is listed as known
            java.util.Set<String> ignored = ignoredFields(u.getReferringClass());
            String known = u.getKnownPropertyIds() == null
                    ? ""
                    : u.getKnownPropertyIds().stream()
                            .map(String::valueOf)
                            .filter(name -> !ignored.contains(name))
                            .sorted()
                            .collect(Collectors.joining(", "));
            NotAccepted notAccepted =
                    u.getReferringClass() == null ? null : u.getReferringClass().getAnnotation(NotAccepted.class);
            if (notAccepted != null && notAccepted.field().equals(u.getPropertyName())) {
                return invalidJsonProblem(
                        "field '" + field + "' is not accepted here: " + notAccepted.because()
                                + (known.isEmpty() ? "" : "; accepted fields: " + known),
                        field);
            }
            return invalidJsonProblem(
                    "unknown field '" + field + "'" + (known.isEmpty() ? "" : "; known fields: " + known), field);
        }
        String expected = e.getTargetType() == null ? "another type" : describe(e.getTargetType());
        if (field.isEmpty()) {
            return invalidJsonProblem("the request body must be JSON: " + expected, "body");
        }
        return invalidJsonProblem("field '" + field + "' must be " + expected, field);
    }

    /** The wire names of a record body's components marked {@code @JsonIgnore}: set by the server, never sent. */
    static java.util.Set<String> ignoredFields(Class<?> type) {
        if (type == null || !type.isRecord()) {
            return java.util.Set.of();
        }
        var snake = new PropertyNamingStrategies.SnakeCaseStrategy();
        java.util.Set<String> names = new java.util.HashSet<>();
        for (var c : type.getRecordComponents()) {
            if (c.getAccessor().isAnnotationPresent(com.fasterxml.jackson.annotation.JsonIgnore.class)) {
                names.add(snake.translate(c.getName()));
            }
        }
        return names;
    }

    @ServerExceptionMapper
    public Response notText(StrictText.NotText e) {
        return invalidJson(e.getOriginalMessage(), "body");
    }

    @ServerExceptionMapper
    public Response malformed(JsonParseException e) {
        String original = e.getOriginalMessage();
        if (original != null && original.startsWith("Duplicate field '") && original.endsWith("'")) {
            // Jackson's message quotes only the field's name, never a value
            String field = original.substring("Duplicate field '".length(), original.length() - 1);
            return invalidJson("field '" + field + "' appears more than once; each field may be given once", field);
        }
        String where = e.getLocation() == null
                ? ""
                : " at line " + e.getLocation().getLineNr() + ", column "
                        + e.getLocation().getColumnNr();
        // The original message is not echoed: it quotes the input, which may hold a secret.
        return invalidJson("the request body is not valid JSON" + where, "body");
    }

    @ServerExceptionMapper
    public Response otherJson(JsonProcessingException e) {
        if (e instanceof StreamConstraintsException sce) {
            return overConstraint(sce);
        }
        if (e instanceof JsonMappingException jme && jme.getCause() instanceof CairnException ce) {
            return domain(ce);
        }
        return invalidJson("the request body could not be read as the expected JSON", "body");
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, ContainerRequestContext request) {
        // Quarkus REST reports a body that is not JSON at all as a bare 400 whose cause is the parser's exception.
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof StrictText.NotText nt) {
                return notText(nt);
            } else if (c instanceof StreamConstraintsException sce) {
                return overConstraint(sce);
            } else if (c instanceof JsonParseException jpe) {
                return malformed(jpe);
            } else if (c instanceof UnrecognizedPropertyException upe) {
                return unknownField(upe);
            } else if (c instanceof MismatchedInputException mie) {
                return wrongType(mie);
            } else if (c instanceof CairnException ce) {
                return domain(ce);
            }
        }
        int status = e.getResponse().getStatus();
        // (a domain error in the cause chain was answered above)
        if ((status == 404 || status == 405) && request != null) {
            // a routing miss: whether the path is a route decides 405 (with Allow) or 404, whichever class it hit
            Set<String> allowed =
                    Routes.allowed(request.getUriInfo().getRequestUri().getRawPath());
            if (!allowed.isEmpty() && !allowed.contains(request.getMethod())) {
                return methodNotAllowed(request.getMethod(), allowed);
            }
            if (allowed.isEmpty()) {
                status = 404;
            }
        }
        Response.StatusType known = Response.Status.fromStatusCode(status);
        String title = (known == null ? e.getResponse().getStatusInfo() : known).getReasonPhrase();
        String detail = switch (status) {
            case 404 -> "no such route; see GET /q/openapi for the API";
            case 405 -> "this route does not accept that method";
            case 406 -> "this route answers application/json";
            case 415 -> "send the body as application/json";
            case 413 -> "the request body is too large";
            default -> e.getMessage();
        };
        return problem(Problem.of(title.toLowerCase().replace(' ', '-'), title, status, detail));
    }

    /**
     * A string, number or nesting beyond the JSON reader's limits (20 M characters, 1,000 digits, 1,000 levels): far
     * past anything Cairn stores, so it is a body too large, not malformed JSON.
     */
    private static Response overConstraint(StreamConstraintsException e) {
        // Jackson's message names the limit and the length, never the value
        return problem(Problem.of(
                "content-too-large",
                "Content too large",
                413,
                "a value in the request body is beyond the JSON reader's limits: " + e.getOriginalMessage()));
    }

    private static Response invalidJson(String detail, String field) {
        return problem(invalidJsonProblem(detail, field));
    }

    private static Problem invalidJsonProblem(String detail, String field) {
        // a field name or a parser's excerpt is the caller's own text, and an error is read, logged and pasted into
        // issues: a secret sent as a field name ({"ghp_…": 1}) must not come back in the answer
        String safeDetail = withoutSecrets(detail);
        String safeField = withoutSecrets(field);
        return Problem.of(
                "invalid-request", "Invalid request", 400, safeDetail, List.of(new FieldError(safeField, safeDetail)));
    }

    /** The text with whatever the secret scanner finds in it redacted (the same markers as a stored memory's). */
    static String withoutSecrets(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        var scanner = dev.cairn.model.secret.SecretScanner.bundled();
        return dev.cairn.model.secret.SecretScanner.redact(text, scanner.scan(text));
    }

    /** 405 with {@code Allow}: the path is a route, the method is not one of its methods. */
    static Response methodNotAllowed(String method, Set<String> allowed) {
        return Response.fromResponse(problem(Problem.of(
                        "method-not-allowed",
                        "Method Not Allowed",
                        405,
                        method + " is not a method of this route; it takes " + String.join(", ", allowed)
                                + " (see GET /q/openapi)")))
                .header("Allow", String.join(", ", allowed))
                .build();
    }

    private static Response problem(Problem p) {
        return Response.status(p.status()).type(Problem.MEDIA_TYPE).entity(p).build();
    }

    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (!sb.isEmpty()) {
                    sb.append('.');
                }
                sb.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    private static String describe(Class<?> type) {
        if (type == String.class) {
            return "a string";
        } else if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "a whole number";
        } else if (Number.class.isAssignableFrom(type) || type == double.class) {
            return "a number";
        } else if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        } else if (List.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        return "an object";
    }
}
