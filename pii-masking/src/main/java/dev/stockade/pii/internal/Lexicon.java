package dev.stockade.pii.internal;

/**
 * The read-only data PERSON and LOCATION need (gazetteers, part-of-speech model), loaded once per JVM on first
 * use and shared by every masker: it is immutable data, not configuration, so sharing it costs no isolation.
 */
final class Lexicon {

    private Lexicon() {
    }

    private static final class Holder {
        static final Gazetteer GAZETTEER = Gazetteer.load();
        static final NominalTagger TAGGER = NominalTagger.load();
    }

    static Gazetteer gazetteer() {
        return Holder.GAZETTEER;
    }

    static NominalTagger tagger() {
        return Holder.TAGGER;
    }
}
