package dev.stockade.pii.internal;

import java.util.Set;

/**
 * Context words that tip a capitalised word towards a person or a place, as Presidio's recognisers use
 * context: a word list never decides "Will" or "Reading" alone.
 */
final class NameCues {

    static final Set<String> TITLES = Set.of("mr", "mrs", "ms", "miss", "mx", "dr", "prof", "professor", "sir",
            "dame", "madam", "lady", "lord", "herr", "frau", "mme", "mlle", "sr", "sra", "fr", "rev");

    /** Words that all but say a person's name follows; enough for a name no gazetteer knows. */
    static final String[] PERSON_STRONG = {"name", "named", "called", "dear", "hi", "hello", "hey", "thanks",
        "thank you", "regards", "cheers", "sincerely", "this is", "i am", "i'm", "contact", "customer", "patient",
        "employee", "author", "signed", "from:", "to:", "cc", "cc:", "ask", "tell", "according to", "colleague",
        "friend", "wife", "husband", "son", "daughter", "mother", "father", "brother", "sister", "mr", "ms", "mrs",
        "first", "last", "holder", "assignee", "reviewer", "owner", "manager"};

    /** Words often, but far from always, followed by a person: enough for two or more unknown words. */
    static final String[] PERSON_WEAK = {"with", "by", "user", "client", "met", "spoke", "ping", "approved by",
        "assigned to", "to", "for", "and"};

    static final String[] PERSON_AFTER = {"said", "says", "wrote", "writes", "asked", "replied", "mentioned",
        "thinks", "who", "and her", "and his", "joined", "left", "<"};

    /** Words that all but say a place follows. */
    static final String[] PLACE_STRONG = {"city", "town", "country", "region", "province", "state of", "county",
        "located in", "lives in", "living in", "moved to", "based in", "born in", "flew to", "fly to", "flight to",
        "travel to", "travelling to", "traveling to", "visiting", "office in", "headquartered in", "relocated to"};

    /** Prepositions that often precede a place. */
    static final String[] PLACE_WEAK = {"in", "at", "near", "from", "to", "via", "outside", "downtown",
        "north of", "south of", "east of", "west of", "visit"};

    static final Set<String> STREET_WORDS = Set.of("street", "road", "avenue", "boulevard", "lane", "drive");

    static final Set<String> US_STATES = Set.of("AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI",
            "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV",
            "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT",
            "VA", "WA", "WV", "WI", "WY", "DC");

    private NameCues() {
    }

    /** Whether one of {@code cues} starts within {@code reach} characters after {@code at}. */
    static boolean cueAfter(String text, int at, int reach, String[] cues) {
        int end = Math.min(text.length(), at + reach);
        String after = text.substring(at, end).toLowerCase(java.util.Locale.ROOT).stripLeading();
        if (after.startsWith(",")) {
            after = after.substring(1).stripLeading();
        }
        for (String cue : cues) {
            if (after.startsWith(cue) && (after.length() == cue.length() || !Character.isLetter(after.charAt(cue.length())))) {
                return true;
            }
        }
        return false;
    }
}
