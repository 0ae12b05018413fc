package dev.stockade.pii.internal;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import dev.stockade.pii.PiiType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * ADDRESS: numbered street lines in the common English ("221B Baker Street, Apt 4"), German
 * ("Hauptstraße 12a") and French ("12 rue de Rivoli") shapes. Cities and postal codes after the street line
 * are not part of it: the town after a street line is reported as LOCATION, and postal codes are not a type.
 */
public final class AddressRecognizer implements Recognizer {

    private static final String SUFFIX = "(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct"
            + "|Place|Pl|Way|Terrace|Ter|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Square|Sq|Trail|Trl|Close|Crescent"
            + "|Cres|Row|Alley|Plaza|Loop|Pike|Mews|Gardens|Grove|Walk|Hill)";
    private static final String DIRECTION = "(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)";
    private static final String UNIT = "(?:,?[ \\t]+(?:Apt|Apartment|Suite|Ste|Unit|Floor|Fl|Room|Rm|Flat|#)\\.?[ \\t]*#?[A-Za-z0-9-]{1,6})?";
    private static final Pattern ENGLISH = Pattern.compile(
            "\\b[1-9][0-9]{0,5}[A-Za-z]?(?:-[0-9]{1,4})?[ \\t]+(?:" + DIRECTION + "\\.?[ \\t]+)?"
                    + "(?:(?:\\p{Lu}[\\p{L}'.-]*|[0-9]{1,3}(?:st|nd|rd|th)|van|von|de|der|den|del|la|le|du|da|di)[ \\t]+){1,4}"
                    + SUFFIX + "\\b\\.?"
                    + "(?:[ \\t]+" + DIRECTION + "\\b\\.?)?" + UNIT);
    private static final Pattern GERMAN = Pattern.compile(
            "(?:\\b[A-ZÄÖÜ][a-zäöüß]+[ \\t]+)?\\b[A-ZÄÖÜ][a-zäöüß-]*(?:straße|strasse|Straße|Strasse|str\\.|weg|Weg"
                    + "|platz|Platz|gasse|Gasse|allee|Allee|ring|damm|ufer|gata|gatan|gate|gaten|vei|veien|vegen|vägen|väg|vej)[ \\t]+[1-9][0-9]{0,3}[a-z]?\\b");
    private static final Pattern FRENCH = Pattern.compile(
            "\\b[1-9][0-9]{0,3}(?:[ \\t]?(?:bis|ter))?,?[ \\t]+(?:rue|avenue|boulevard|bd|place|chemin|allée|impasse"
                    + "|quai|route|cours)[ \\t]+(?:(?:de la|de|du|des|la|le|l'|d')[ \\t]*)?\\p{Lu}[\\p{L}'-]+"
                    + "(?:[ \\t]+\\p{Lu}[\\p{L}'-]+){0,3}");

    // Postal order puts the town after the street line: "..., Apt 4, London" or "..., 10827 Berlin".
    private static final Pattern TOWN_AFTER = Pattern.compile(
            "^,[ \\t]+(?:[0-9]{4,5}[ \\t]+)?(\\p{Lu}[\\p{L}'-]+(?:[ -](?:(?:de|del|la|las|los|da|do|dos|das|di|van|von|der|den"
                    + "|sur|en|upon|on|am|im)[ -])?\\p{Lu}[\\p{L}'-]+){0,3})");

    private static final Set<String> ENGLISH_WORDS = Set.of(SUFFIX.substring(3, SUFFIX.length() - 1).split("\\|"));
    private static final String[] GERMAN_ENDINGS = {"straße", "strasse", "str", "weg", "platz", "gasse", "allee",
        "ring", "damm", "ufer", "gata", "gatan", "gate", "gaten", "vei", "veien", "vegen", "vägen", "väg", "vej"};
    private static final Set<String> FRENCH_WORDS = Set.of("rue", "avenue", "boulevard", "bd", "place", "chemin",
            "allée", "impasse", "quai", "route", "cours");

    @Override
    public void find(String text, List<Span> out) {
        for (int[] r : regions(text)) {
            String part = text.substring(r[0], r[1]);
            for (Pattern p : new Pattern[] {ENGLISH, GERMAN, FRENCH}) {
                Matcher m = p.matcher(part);
                while (m.find()) {
                    add(text, r[0] + m.start(), r[0] + m.end(), out);
                }
            }
        }
    }

    /**
     * Stretches of text around a street word ("Street", "-straße", "rue"), merged where they overlap. The
     * patterns run only there, so text without a street word, most of it, costs one pass over its words.
     */
    private static List<int[]> regions(String text) {
        List<int[]> found = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            if (!Character.isLetter(text.charAt(i))) {
                i++;
                continue;
            }
            int s = i;
            while (i < n && Character.isLetter(text.charAt(i))) {
                i++;
            }
            String word = text.substring(s, i);
            String lower = word.toLowerCase(Locale.ROOT);
            if (ENGLISH_WORDS.contains(word)) {
                found.add(new int[] {s - 120, i + 48});
            } else if (FRENCH_WORDS.contains(lower)) {
                found.add(new int[] {s - 16, i + 120});
            } else if (endsWithAny(lower) && i + 2 < n && Character.isDigit(text.charAt(text.charAt(i) == '.' ? i + 2 : i + 1))) {
                found.add(new int[] {s - 40, i + 10});
            }
        }
        List<int[]> merged = new ArrayList<>();
        for (int[] r : found) {
            int from = Math.max(0, r[0]);
            while (from > 0 && !Character.isWhitespace(text.charAt(from - 1)) && r[0] - from < 24) {
                from--;
            }
            int to = Math.min(n, r[1]);
            int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && from <= last[1]) {
                last[1] = Math.max(last[1], to);
            } else {
                merged.add(new int[] {from, to});
            }
        }
        return merged;
    }

    private static boolean endsWithAny(String lower) {
        for (String e : GERMAN_ENDINGS) {
            if (lower.endsWith(e)) {
                return true;
            }
        }
        return false;
    }

    private static void add(String text, int start, int matchEnd, List<Span> out) {
        int end = matchEnd;
        while (end > start && text.charAt(end - 1) == '.' && !abbreviated(text, start, end)) {
            end--;
        }
        out.add(new Span(start, end, PiiType.ADDRESS));
        Matcher town = TOWN_AFTER.matcher(text.substring(end, Math.min(text.length(), end + 80)));
        if (town.find()) {
            out.add(new Span(end + town.start(1), end + town.end(1), PiiType.LOCATION));
        }
    }

    // "Main St." keeps its dot; a sentence's full stop after "Main Street" does not belong to the address.
    private static boolean abbreviated(String text, int start, int end) {
        int space = text.lastIndexOf(' ', end - 1);
        String last = text.substring(Math.max(start, space + 1), end - 1);
        return last.length() <= 4 && !last.isEmpty() && Character.isUpperCase(last.charAt(0));
    }
}
