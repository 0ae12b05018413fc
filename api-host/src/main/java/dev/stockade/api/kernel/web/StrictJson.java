package dev.stockade.api.kernel.web;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import java.io.IOException;

/**
 * Strict reading of request bodies, one reader for every route: a number where text is expected (or text where a
 * number or a boolean is expected) is an error, never a silent conversion; text after the JSON value is refused; a
 * duplicate key, a string the platform cannot store ({@link StorableText}) and a time outside {@link StorableTime}
 * are refused with their JSON pointer ({@link StrictJsonFactory}). Unknown fields are refused by configuration
 * ({@code jackson.deserialization.failOnUnknownProperties}). Bytes that are not UTF-8 never get here
 * ({@link Utf8Bodies}).
 */
@Singleton
final class StrictJson implements BeanCreatedEventListener<ObjectMapper> {
    @Override
    public ObjectMapper onCreated(BeanCreatedEvent<ObjectMapper> event) {
        // duplicate keys are found by the factory's parsers, which know the key's pointer; Jackson's own check does not
        ObjectMapper mapper = event.getBean().copyWith(new StrictJsonFactory(event.getBean().getFactory()));
        mapper.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.registerModule(new SimpleModule("stockade-storable-times").setDeserializerModifier(
                StorableTime.modifier()));
        mapper.registerModule(new SimpleModule("stockade-records-are-objects").setDeserializerModifier(
                new CheckedDeserializers((description, deserializer) -> deserializer instanceof BeanDeserializerBase,
                        StrictJson::objectsOnly)));
        for (LogicalType target : new LogicalType[] {LogicalType.Textual, LogicalType.Integer, LogicalType.Float,
                LogicalType.Boolean, LogicalType.Enum, LogicalType.DateTime}) {
            var config = mapper.coercionConfigFor(target);
            for (CoercionInputShape shape : new CoercionInputShape[] {CoercionInputShape.Integer,
                    CoercionInputShape.Float, CoercionInputShape.Boolean, CoercionInputShape.String,
                    CoercionInputShape.EmptyString, CoercionInputShape.Array}) {
                if (!sameShape(target, shape)) {
                    config.setCoercion(shape, CoercionAction.Fail);
                }
            }
        }
        return mapper;
    }

    /** The shapes a type is written in natively; everything else would be a coercion. */
    private static boolean sameShape(LogicalType target, CoercionInputShape shape) {
        return switch (target) {
            case Textual -> shape == CoercionInputShape.String || shape == CoercionInputShape.EmptyString;
            case Integer -> shape == CoercionInputShape.Integer;
            case Float -> shape == CoercionInputShape.Float || shape == CoercionInputShape.Integer;
            case Boolean -> shape == CoercionInputShape.Boolean;
            case Enum, DateTime -> shape == CoercionInputShape.String;
            default -> false;
        };
    }

    /**
     * A record is written as a JSON object: a bare number, string or boolean where one is expected is the wrong type.
     * Without this, the framework's introspected records try to build themselves from the scalar and fail outside
     * Jackson's error handling (a 500 for a body of {@code 1E-400}).
     */
    private static Object objectsOnly(JsonDeserializer<?> delegate, JsonParser p, DeserializationContext ctxt)
            throws IOException {
        if (p.currentToken() != null && p.currentToken().isScalarValue() && p.currentToken() != JsonToken.VALUE_NULL) {
            return ctxt.handleUnexpectedToken(delegate.handledType(), p);
        }
        return delegate.deserialize(p, ctxt);
    }
}
