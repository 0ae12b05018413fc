package dev.stockade.proxy.feed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.policy.compiler.PolicyPart;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.SourceMap;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A follower's policy documents by content hash. The feed sends each distinct document once; it waits here as text
 * until a set lists it, is read (the core's strict validation, the costly step) once, and every set listing it
 * shares the read form, prepared for resolution. A document the follower lacks (never sent, or evicted) is fetched by its hash; one that
 * cannot be fetched, does not match its hash or does not read leaves the sets listing it denying everything.
 */
public final class PolicyDocuments {
    /** Distinct documents kept read (about two per sandbox of a proxy with a few thousand sandboxes). */
    static final int READ_CACHE = 10_000;
    /** Texts received but not read yet; a burst beyond this is fetched again when read. */
    private static final long TEXT_CHARS = 64L << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A document's read form: the policy prepared for resolution (parsed and indexed once, {@link PolicyPart}), or why
     * it does not read (cached: a hash's content never changes).
     */
    sealed interface Read {
    }

    record Valid(PolicyPart part) implements Read {
    }

    record Invalid(String why) implements Read {
    }

    private final Cache<DocumentHash, String> texts = Caffeine.newBuilder().maximumWeight(TEXT_CHARS)
            .weigher((DocumentHash h, String t) -> t.length()).build();
    private final Cache<DocumentHash, Read> read = Caffeine.newBuilder().maximumSize(READ_CACHE).build();
    private final Consumer<String> warn;
    private final AtomicLong fetched = new AtomicLong();
    private volatile DocumentFetch fetch = DocumentFetch.NONE;

    PolicyDocuments(Consumer<String> warn) {
        this.warn = warn;
    }

    /** Where documents this follower lacks are fetched from (the source that feeds it). */
    public void fetchMissingFrom(DocumentFetch source) {
        this.fetch = source;
    }

    /** Keeps a document sent whole (an older feed's shape) and returns its hash. */
    public DocumentHash offer(String text) {
        DocumentHash hash = DocumentHash.of(text);
        keep(hash, text);
        return hash;
    }

    /** Keeps a document sent by hash; one whose text does not match the hash is refused ({@code false}). */
    public boolean offer(DocumentHash hash, String text) {
        if (!hash.names(text)) {
            warn.accept("document " + hash + " does not match its hash; refused");
            return false;
        }
        keep(hash, text);
        return true;
    }

    /** Whether the document is here, read or waiting to be (a follower asks before fetching a batch). */
    public boolean has(DocumentHash hash) {
        return read.getIfPresent(hash) != null || texts.getIfPresent(hash) != null;
    }

    /** Whether the document's read form is here (a list of such documents is ready without a hop to a pool). */
    boolean isRead(DocumentHash hash) {
        return read.getIfPresent(hash) != null;
    }

    /** How many documents were fetched by hash since the start. */
    public long fetched() {
        return fetched.get();
    }

    /**
     * The read form of a document, prepared for resolution, fetching it if missing; empty when it cannot be had or
     * does not read.
     */
    Optional<PolicyPart> part(DocumentHash hash) {
        Read r = read.get(hash, this::load); // one load per hash, however many compile threads ask at once
        return r instanceof Valid v ? Optional.of(v.part()) : Optional.empty();
    }

    private void keep(DocumentHash hash, String text) {
        if (read.getIfPresent(hash) == null) {
            texts.put(hash, text);
        }
    }

    /** Null when the document cannot be had now: not cached, so a later set listing it tries again. */
    private Read load(DocumentHash hash) {
        if (hash.equals(DocumentHash.UNAVAILABLE)) {
            return null; // a shared list the follower was not sent: the set denies until the list arrives
        }
        String text = texts.getIfPresent(hash);
        if (text == null) {
            text = fetch.fetch(hash).orElse(null);
            if (text == null || !hash.names(text)) {
                warn.accept("document " + hash + (text == null ? " could not be fetched" : " fetched does not match"
                        + " its hash"));
                return null;
            }
            fetched.incrementAndGet();
        }
        texts.invalidate(hash); // from now on the read form stands for it
        return readText(text);
    }

    private static Read readText(String text) {
        JsonNode tree;
        try {
            tree = JSON.readTree(text);
        } catch (IOException e) {
            return new Invalid("not JSON");
        }
        ReadResult r = PolicyReader.fromTree(tree, SourceMap.empty(), "platform", text);
        // the part is prepared here, once per content hash: every list naming the document reuses it
        return r.valid() ? new Valid(PolicyPart.of(r.policy())) : new Invalid("does not pass the policy checks");
    }
}
