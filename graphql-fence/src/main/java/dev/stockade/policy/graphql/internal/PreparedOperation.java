package dev.stockade.policy.graphql.internal;

import java.util.List;

/**
 * One operation ready to be judged: its type ({@code query}, {@code mutation}, {@code subscription}),
 * its declared name ({@code null} when unnamed) and every occurrence of its root fields.
 */
public record PreparedOperation(String type, String name, List<RootField> rootFields) {
    public PreparedOperation {
        rootFields = List.copyOf(rootFields);
    }
}
