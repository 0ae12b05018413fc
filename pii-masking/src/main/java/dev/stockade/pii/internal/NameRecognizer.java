package dev.stockade.pii.internal;

import dev.stockade.pii.PiiType;
import java.util.List;

/**
 * PERSON and LOCATION: runs of capitalised prose words are looked up in the gazetteers (given names, family
 * names, places) and decided with context cues, as Presidio does; a word that is also everyday English needs a
 * cue and the part-of-speech model's agreement that it is used as a noun. Rules, in order, for each run:
 * a title starts a name; a multi-word place is a place; "X Street" without a number is a place; then a
 * segment of name-like words is a person if it holds a known given or family name, a place if it is one.
 */
public final class NameRecognizer implements Recognizer {

    private final Gazetteer gazetteer;
    private final NominalTagger tagger;
    private final boolean persons;
    private final boolean places;

    /** Finds PERSON when {@code persons}, LOCATION when {@code places}; {@code tagger} may be null (no model). */
    public NameRecognizer(Gazetteer gazetteer, NominalTagger tagger, boolean persons, boolean places) {
        this.gazetteer = gazetteer;
        this.tagger = tagger;
        this.persons = persons;
        this.places = places;
    }

    @Override
    public void find(String text, List<Span> out) {
        List<WordToken> tokens = WordToken.scan(text);
        int i = 0;
        while (i < tokens.size()) {
            WordToken t = tokens.get(i);
            if (!t.capitalised() || t.code()) {
                i++;
                continue;
            }
            int j = i;
            while (j + 1 < tokens.size() && joins(text, tokens.get(j), tokens.get(j + 1))) {
                j++;
            }
            new Run(text, tokens, out).decide(i, j);
            i = j + 1;
        }
    }

    private static boolean joins(String text, WordToken a, WordToken b) {
        if (!b.capitalised() || b.code()) {
            return false;
        }
        String gap = text.substring(a.end(), b.start());
        if (gap.equals(" ")) {
            return true;
        }
        boolean shortened = a.text().length() == 1 || NameCues.TITLES.contains(Gazetteer.key(a.text()));
        return shortened && gap.equals(". ");
    }

    /** One run of capitalised words and the spans decided in it. */
    private final class Run {
        private final String text;
        private final List<WordToken> tokens;
        private final List<Span> out;

        Run(String text, List<WordToken> tokens, List<Span> out) {
            this.text = text;
            this.tokens = tokens;
            this.out = out;
        }

        void decide(int from, int to) {
            int k = from;
            while (k <= to) {
                k = step(k, to);
            }
        }

        private int step(int k, int to) {
            WordToken t = tokens.get(k);
            if (NameCues.TITLES.contains(Gazetteer.key(t.text())) && k < to) {
                int last = k + 1;
                while (last + 1 <= to && last + 1 <= k + 3 && nameLike(tokens.get(last + 1))) {
                    last++;
                }
                emit(PiiType.PERSON, k + 1, last);
                return last + 1;
            }
            int placeWords = placeLength(k, to);
            if (placeWords >= 2) {
                emit(PiiType.LOCATION, k, k + placeWords - 1);
                return k + placeWords;
            }
            if (k < to && NameCues.STREET_WORDS.contains(Gazetteer.key(tokens.get(k + 1).text()))) {
                emit(PiiType.LOCATION, k, k + 1);
                return k + 2;
            }
            int end = k;
            while (end <= to && nameLike(tokens.get(end)) && (end == k || placeLength(end, to) < 2)) {
                end++;
            }
            if (end == k) {
                return k + 1;
            }
            segment(trimStart(k, end - 1), end - 1);
            return end;
        }

        // A leading everyday word that is not a given name ("Dear", "Meeting") is not part of the name after it.
        private int trimStart(int a, int b) {
            WordToken t = tokens.get(a);
            boolean english = gazetteer.isEnglish(t.text());
            return a < b && english && !gazetteer.isGiven(t.text()) ? a + 1 : a;
        }

        private void segment(int a, int b) {
            if (b == a) {
                single(a);
                return;
            }
            int strong = 0;
            for (int k = a; k <= b; k++) {
                strong += strong(tokens.get(k)) ? 1 : 0;
            }
            boolean unknown = allUnknown(a, b);
            if (strong > 0 || anyName(a, b) && personCue(a, b, true)) {
                emit(PiiType.PERSON, a, b);
            } else if (unknown && placeCue(a, false) || stateAfter(b)) {
                emit(PiiType.LOCATION, a, b);
            } else if (unknown && b - a < 3 && personCue(a, b, true)) {
                emit(PiiType.PERSON, a, b);
            }
        }

        private void single(int a) {
            WordToken t = tokens.get(a);
            boolean name = gazetteer.isGiven(t.text()) || gazetteer.isFamily(t.text());
            boolean english = gazetteer.isEnglish(t.text());
            boolean personCue = personCue(a, a, true);
            if (stateAfter(a) || gazetteer.isPlace(t.text()) && !(name && personCue(a, a, false))) {
                if (!english || placeCue(a, true) && nominal(a) || stateAfter(a)) {
                    emit(PiiType.LOCATION, a, a);
                }
                return;
            }
            if (!name) {
                if (!english && personCue(a, a, false)) {
                    emit(PiiType.PERSON, a, a);
                } else if (!english && placeCue(a, false)) {
                    emit(PiiType.LOCATION, a, a);
                }
                return;
            }
            if (!english && gazetteer.isGiven(t.text()) || !english && personCue || personCue && nominal(a)) {
                emit(PiiType.PERSON, a, a);
            }
        }

        private boolean allUnknown(int a, int b) {
            for (int k = a; k <= b; k++) {
                String w = tokens.get(k).text();
                if (gazetteer.isEnglish(w) || gazetteer.isPlace(w)) {
                    return false;
                }
            }
            return true;
        }

        private boolean nameLike(WordToken t) {
            String w = t.text();
            if (NameCues.TITLES.contains(Gazetteer.key(w)) || gazetteer.isCalendar(w)) {
                return false;
            }
            return gazetteer.isGiven(w) || gazetteer.isFamily(w) || gazetteer.isPlace(w) || !gazetteer.isEnglish(w);
        }

        private boolean strong(WordToken t) {
            String w = t.text();
            return (gazetteer.isGiven(w) || gazetteer.isFamily(w)) && !gazetteer.isEnglish(w);
        }

        private boolean anyName(int a, int b) {
            for (int k = a; k <= b; k++) {
                if (gazetteer.isGiven(tokens.get(k).text()) || gazetteer.isFamily(tokens.get(k).text())) {
                    return true;
                }
            }
            return false;
        }

        private int placeLength(int k, int to) {
            int max = Math.min(gazetteer.longestPlace(), to - k + 1);
            for (int len = max; len >= 1; len--) {
                String phrase = text.substring(tokens.get(k).start(), tokens.get(k + len - 1).end());
                if (gazetteer.isPlace(phrase)) {
                    return len;
                }
            }
            return 0;
        }

        /** A person cue around {@code [a, b]}; weak cues count only when {@code weakToo}. */
        private boolean personCue(int a, int b, boolean weakToo) {
            int at = tokens.get(a).start();
            return Boundaries.cueBefore(text, at, 24, NameCues.PERSON_STRONG)
                    || weakToo && Boundaries.cueBefore(text, at, 12, NameCues.PERSON_WEAK)
                    || NameCues.cueAfter(text, tokens.get(b).end(), 20, NameCues.PERSON_AFTER);
        }

        /** A place cue before {@code a}; weak cues (prepositions) count only when {@code weakToo}. */
        private boolean placeCue(int a, boolean weakToo) {
            int at = tokens.get(a).start();
            return Boundaries.cueBefore(text, at, 24, NameCues.PLACE_STRONG)
                    || weakToo && Boundaries.cueBefore(text, at, 12, NameCues.PLACE_WEAK);
        }

        // "Springfield, IL": a US state abbreviation after a comma.
        private boolean stateAfter(int b) {
            int at = tokens.get(b).end();
            if (at + 4 > text.length() || !text.startsWith(", ", at)) {
                return false;
            }
            String code = text.substring(at + 2, at + 4);
            boolean bounded = at + 4 == text.length() || !Character.isLetter(text.charAt(at + 4));
            return bounded && NameCues.US_STATES.contains(code);
        }

        private boolean nominal(int index) {
            if (tagger == null) {
                return false;
            }
            int from = Math.max(0, index - 10);
            int to = Math.min(tokens.size(), index + 6);
            String[] words = new String[to - from];
            for (int k = from; k < to; k++) {
                words[k - from] = tokens.get(k).text();
            }
            return tagger.isNominal(words, index - from);
        }

        private void emit(PiiType type, int a, int b) {
            if (type == PiiType.PERSON && !persons || type == PiiType.LOCATION && !places) {
                return;
            }
            out.add(new Span(tokens.get(a).start(), tokens.get(b).end(), type));
            if (type == PiiType.LOCATION && stateAfter(b)) {
                int at = tokens.get(b).end() + 2;
                out.add(new Span(at, at + 2, PiiType.LOCATION));
            }
        }
    }
}
