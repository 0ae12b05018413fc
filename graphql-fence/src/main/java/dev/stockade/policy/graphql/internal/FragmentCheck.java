package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.graphql.FenceReason;
import graphql.language.Field;
import graphql.language.FragmentDefinition;
import graphql.language.FragmentSpread;
import graphql.language.InlineFragment;
import graphql.language.OperationDefinition;
import graphql.language.Selection;
import graphql.language.SelectionSet;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fragment rules a server validates before running anything: every spread names a defined fragment
 * and no fragment spreads itself, directly or through others. A document breaking them is denied, at any
 * depth (a server would refuse it; a fence must not guess how).
 */
final class FragmentCheck {

    private FragmentCheck() {
    }

    static void check(List<OperationDefinition> operations, Map<String, FragmentDefinition> fragments)
            throws Denied {
        for (OperationDefinition operation : operations) {
            for (String name : spreadsIn(operation.getSelectionSet())) {
                requireKnown(name, fragments);
            }
        }
        Map<String, Set<String>> edges = new HashMap<>();
        for (FragmentDefinition fragment : fragments.values()) {
            Set<String> spreads = spreadsIn(fragment.getSelectionSet());
            for (String name : spreads) {
                requireKnown(name, fragments);
            }
            edges.put(fragment.getName(), spreads);
        }
        checkAcyclic(edges);
    }

    private static void requireKnown(String name, Map<String, FragmentDefinition> fragments) throws Denied {
        if (!fragments.containsKey(name)) {
            throw new Denied(FenceReason.UNPARSEABLE, "fragment " + Reason.quote(name) + " is not defined");
        }
    }

    /** The fragment names spread anywhere below {@code root} (iterative: depth is attacker-chosen). */
    private static Set<String> spreadsIn(SelectionSet root) {
        Set<String> names = new LinkedHashSet<>();
        Deque<SelectionSet> pending = new ArrayDeque<>();
        pushIfPresent(pending, root);
        while (!pending.isEmpty()) {
            SelectionSet set = pending.pop();
            for (Selection<?> selection : set.getSelections()) {
                if (selection instanceof Field field) {
                    pushIfPresent(pending, field.getSelectionSet());
                } else if (selection instanceof InlineFragment inline) {
                    pushIfPresent(pending, inline.getSelectionSet());
                } else if (selection instanceof FragmentSpread spread) {
                    names.add(spread.getName());
                }
            }
        }
        return names;
    }

    /** Iterative three-colour depth-first search over the spread graph. */
    private static void checkAcyclic(Map<String, Set<String>> edges) throws Denied {
        Map<String, Integer> colour = new HashMap<>(); // absent: unvisited, 1: on the path, 2: done
        for (String start : edges.keySet()) {
            if (colour.containsKey(start)) {
                continue;
            }
            Deque<String> path = new ArrayDeque<>();
            Deque<List<String>> todo = new ArrayDeque<>();
            colour.put(start, 1);
            path.push(start);
            todo.push(new ArrayList<>(edges.get(start)));
            while (!path.isEmpty()) {
                List<String> next = todo.peek();
                if (next.isEmpty()) {
                    colour.put(path.pop(), 2);
                    todo.pop();
                    continue;
                }
                String target = next.remove(next.size() - 1);
                Integer state = colour.get(target);
                if (state != null && state == 1) {
                    throw new Denied(FenceReason.UNPARSEABLE, "fragment " + Reason.quote(target) + " spreads itself");
                }
                if (state == null) {
                    colour.put(target, 1);
                    path.push(target);
                    todo.push(new ArrayList<>(edges.get(target)));
                }
            }
        }
    }

    /** Leaf fields have no selection set; ArrayDeque refuses nulls. */
    static void pushIfPresent(Deque<SelectionSet> pending, SelectionSet set) {
        if (set != null) {
            pending.push(set);
        }
    }
}
