package dev.stockade.pii.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The word lists behind PERSON and LOCATION, shipped as resources (see the NOTICE beside them and
 * {@code tools/build-gazetteers.mjs}): given names, family names, places, and everyday English words that make
 * a name ambiguous ("Will", "Reading"). Entries are kept lower-cased; immutable once loaded.
 */
public final class Gazetteer {

    private static final String BASE = "/dev/stockade/pii/gazetteer/";

    private final Set<String> given;
    private final Set<String> family;
    private final Set<String> places;
    private final Set<String> english;
    private final int longestPlace;

    private Gazetteer(Set<String> given, Set<String> family, Set<String> places, Set<String> english) {
        this.given = given;
        this.family = family;
        this.places = places;
        this.english = english;
        this.longestPlace = places.stream().mapToInt(p -> p.split(" ").length).max().orElse(1);
    }

    /** The shipped lists. */
    public static Gazetteer load() {
        return new Gazetteer(read("given-names.txt"), read("family-names.txt"), read("places.txt"),
                read("english-words.txt"));
    }

    private static Set<String> read(String name) {
        InputStream in = Gazetteer.class.getResourceAsStream(BASE + name);
        if (in == null) {
            throw new IllegalStateException("gazetteer resource `" + name + "` is missing from the build");
        }
        Set<String> out = new HashSet<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    out.add(key(line.trim()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read gazetteer `" + name + "`", e);
        }
        return Set.copyOf(out);
    }

    /** The lookup key of a word or phrase: lower case, curly apostrophes straightened. */
    static String key(String s) {
        return s.toLowerCase(Locale.ROOT).replace('\u2019', '\'');
    }

    boolean isGiven(String word) {
        return given.contains(key(word));
    }

    boolean isFamily(String word) {
        return family.contains(key(word));
    }

    boolean isPlace(String phrase) {
        return places.contains(key(phrase));
    }

    /**
     * Whether the lower-cased word is everyday English, so its capitalised form may not be a name. Month and
     * day names and the pronoun I with its contractions count as everyday words too.
     */
    boolean isEnglish(String word) {
        String k = key(word);
        return english.contains(k) || CALENDAR.contains(k) || k.equals("i") || k.startsWith("i'");
    }

    /** Whether the word names a month or a day of the week ("moved to March" is a date, not the town). */
    boolean isCalendar(String word) {
        return CALENDAR.contains(key(word));
    }

    private static final Set<String> CALENDAR = Set.of("january", "february", "march", "april", "may", "june",
            "july", "august", "september", "october", "november", "december", "monday", "tuesday", "wednesday",
            "thursday", "friday", "saturday", "sunday");

    /** The most words a place name has. */
    int longestPlace() {
        return longestPlace;
    }
}
