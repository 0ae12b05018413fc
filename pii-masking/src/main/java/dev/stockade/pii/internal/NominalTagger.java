package dev.stockade.pii.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import opennlp.tools.postag.POSModel;
import opennlp.tools.postag.POSTaggerME;

/**
 * Asks OpenNLP's English part-of-speech model (Universal Dependencies EWT, Apache-2.0, shipped in the build)
 * whether a word is used as a noun. Only consulted for names that are also everyday words, where the
 * word lists alone cannot tell "Will" from "will". The model is shared; each thread gets its own tagger because
 * {@link POSTaggerME} is not thread-safe.
 */
public final class NominalTagger {

    private static final String MODEL = "/opennlp-en-ud-ewt-pos-1.3-2.5.4.bin";

    private final ThreadLocal<POSTaggerME> tagger;

    private NominalTagger(POSModel model) {
        this.tagger = ThreadLocal.withInitial(() -> new POSTaggerME(model));
    }

    /** The tagger over the model on the class path. */
    public static NominalTagger load() {
        try (InputStream in = NominalTagger.class.getResourceAsStream(MODEL)) {
            if (in == null) {
                throw new IllegalStateException("part-of-speech model `" + MODEL + "` is missing from the class path");
            }
            return new NominalTagger(new POSModel(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the part-of-speech model", e);
        }
    }

    /**
     * Whether {@code words[index]} is used as a noun in the sentence {@code words}. The model tags a
     * capitalised "Reading" after "in" as a common noun, so only verb, auxiliary, adjective and other non-noun
     * uses ("Will you", "Reading the file") rule a name out.
     */
    public boolean isNominal(String[] words, int index) {
        String tag = tagger.get().tag(words)[index];
        return tag.equals("PROPN") || tag.equals("NOUN") || tag.equals("X") || tag.startsWith("NN");
    }
}
