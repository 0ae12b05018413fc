package dev.stockade.runtime.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * Memory's full-text index in RAM (Lucene, BM25): SQLite keeps the entries, this is rebuilt from them at
 * startup and kept in step with every write and delete. Lucene finds the top hits without scoring every
 * match (block-max WAND), so a query with a word most entries contain stays fast. Thread-safe.
 */
final class TextIndex implements AutoCloseable {
    /** Query terms used at most (the rest of a long query is ignored). */
    static final int MAX_TERMS = 32;
    private static final String ID = "id";
    private static final String CONTENT = "content";
    /** Held so the level sticks: Lucene logs once that the JDK 17 vector API is not used, which is expected. */
    private static final Logger VECTOR_LOG = Logger.getLogger(
            "org.apache.lucene.internal.vectorization.VectorizationProvider");

    static {
        VECTOR_LOG.setLevel(Level.SEVERE);
    }

    private final Analyzer analyzer = new StandardAnalyzer();
    private final IndexWriter writer;
    private final SearcherManager searchers;

    TextIndex() {
        try {
            writer = new IndexWriter(new ByteBuffersDirectory(), new IndexWriterConfig(analyzer)
                    .setRAMBufferSizeMB(32));
            searchers = new SearcherManager(writer, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Adds (or replaces) entry {@code id}; {@code visible} false defers visibility to {@link #refresh}. */
    void add(long id, String content, boolean visible) {
        Document d = new Document();
        d.add(new StringField(ID, Long.toString(id), Field.Store.YES));
        d.add(new TextField(CONTENT, content, Field.Store.NO));
        try {
            writer.updateDocument(new Term(ID, Long.toString(id)), d);
            if (visible) {
                refresh();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void remove(long id) {
        try {
            writer.deleteDocuments(new Term(ID, Long.toString(id)));
            refresh();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Makes every change so far visible to searches. */
    void refresh() {
        try {
            searchers.maybeRefreshBlocking();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Ids of the {@code k} best entries for any of {@code query}'s words (BM25), best first. */
    long[] search(String query, int k) {
        BooleanQuery.Builder q = new BooleanQuery.Builder();
        Set<String> terms = terms(query);
        if (terms.isEmpty()) {
            return new long[0];
        }
        terms.forEach(t -> q.add(new TermQuery(new Term(CONTENT, t)), BooleanClause.Occur.SHOULD));
        try {
            IndexSearcher s = searchers.acquire();
            try {
                TopDocs top = s.search(q.build(), k);
                long[] ids = new long[top.scoreDocs.length];
                int i = 0;
                for (ScoreDoc d : top.scoreDocs) {
                    ids[i++] = Long.parseLong(s.storedFields().document(d.doc).get(ID));
                }
                return ids;
            } finally {
                searchers.release(s);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The query's distinct words as the index analyses them, at most {@link #MAX_TERMS}. */
    private Set<String> terms(String query) {
        Set<String> out = new LinkedHashSet<>();
        try (TokenStream ts = analyzer.tokenStream(CONTENT, query)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken() && out.size() < MAX_TERMS) {
                out.add(term.toString());
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    @Override
    public void close() {
        try {
            searchers.close();
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
