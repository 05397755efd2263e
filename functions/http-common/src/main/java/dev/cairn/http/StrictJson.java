package dev.cairn.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import jakarta.inject.Inject;
import jakarta.ws.rs.ext.ContextResolver;
import jakarta.ws.rs.ext.Provider;

/**
 * The wire format of API.md for request and response bodies: snake_case, RFC 3339 timestamps, and strict reading —
 * unknown fields, duplicate fields, numbers sent as strings, fractions for integers, trailing garbage, invalid UTF-8
 * and lone surrogates ({@link StrictText}) are errors rather than silently accepted guesses (with a duplicate, the
 * last would win: {@code {"scope":"team","scope":"user"}} would store a user memory).
 *
 * <p>A JAX-RS resolver rather than a global customizer on purpose: the Lambda runtime decodes API Gateway events with
 * the application's ObjectMapper, and those events are camelCase and grow new fields over time.
 */
@Provider
public class StrictJson implements ContextResolver<ObjectMapper> {

    private final ObjectMapper mapper;

    @Inject
    public StrictJson(ObjectMapper base) {
        this.mapper = strict(base.copy());
    }

    @Override
    public ObjectMapper getContext(Class<?> type) {
        return mapper;
    }

    static ObjectMapper strict(ObjectMapper mapper) {
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.getFactory().setInputDecorator(new StrictText());
        mapper.setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        // a field the body type keeps for the server (@JsonIgnore) is as unknown to a caller as any other
        mapper.enable(DeserializationFeature.FAIL_ON_IGNORED_PROPERTIES);
        mapper.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        mapper.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        mapper.configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false);
        for (LogicalType t :
                new LogicalType[] {LogicalType.Integer, LogicalType.Float, LogicalType.Boolean, LogicalType.Textual}) {
            mapper.coercionConfigFor(t)
                    .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        return mapper;
    }
}
