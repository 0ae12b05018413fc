package dev.stockade.api.kernel.web;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;

/**
 * Strict reading of request bodies: a duplicate key, a number where text is expected (or text where a number or a
 * boolean is expected) is an error, never a silent conversion. Unknown fields are refused by configuration
 * ({@code jackson.deserialization.failOnUnknownProperties}).
 */
@Singleton
final class StrictJson implements BeanCreatedEventListener<ObjectMapper> {
    @Override
    public ObjectMapper onCreated(BeanCreatedEvent<ObjectMapper> event) {
        ObjectMapper mapper = event.getBean();
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
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
}
