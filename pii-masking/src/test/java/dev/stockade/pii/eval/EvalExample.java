package dev.stockade.pii.eval;

import java.util.List;

/**
 * One labelled evaluation text.
 *
 * @param shape  what the text looks like in agent traffic: chat, email, log, code or json
 * @param source handwritten, generated-known (names and places from the gazetteers) or generated-heldout
 *               (names and places held out of them)
 */
public record EvalExample(String id, String shape, String source, String text, List<GoldSpan> spans) {

    public EvalExample {
        spans = List.copyOf(spans);
    }
}
