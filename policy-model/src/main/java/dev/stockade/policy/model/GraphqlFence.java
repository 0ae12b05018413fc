package dev.stockade.policy.model;

import java.util.List;

/**
 * The {@code graphql} object of a rule: an operation fence. {@code operationName == null} covers any
 * name including an unnamed operation; {@code fields == null} permits any root field.
 */
public record GraphqlFence(
        OperationType operationType,
        String operationName,
        List<String> fields,
        List<ArgumentCondition> arguments) {

    /** Copies the lists (absent stays {@code null}: the document said nothing), so the fence stays immutable. */
    public GraphqlFence {
        fields = Lists.copyOrNull(fields);
        arguments = Lists.copyOrNull(arguments);
    }
}
