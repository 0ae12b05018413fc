package dev.stockade.api.inference;

import dev.stockade.inference.WireFormat;
import dev.stockade.pii.MaskingException;
import dev.stockade.pii.Restorer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The last stage of an answer under {@code unmaskResponses}: the placeholders this request minted turn back into the
 * caller's values on their way to the caller. It reads the {@link MeteredBody}, so the meter counts the bytes the
 * backend sent and the caller gets the restored ones. A streamed answer is held one server-sent event or one AWS
 * event-stream frame at a time (plus what a {@code StreamRestorer} holds back); a whole JSON answer is held whole,
 * as its restoration needs, up to {@link #WHOLE_LIMIT}, past which it passes unrestored (the placeholders stay:
 * nothing is leaked, only not restored).
 */
final class RestoringBody extends BlockStream {
    /** The largest whole answer restored; the same bound as the meter's copy of an unstreamed answer. */
    static final int WHOLE_LIMIT = 8 * 1024 * 1024;

    /** A transformation of a byte stream that may hold bytes back until it has seen enough. */
    interface Stage {
        /** The bytes ready to go on after {@code chunk}. */
        byte[] push(byte[] chunk);

        /** The bytes still held, at the end of the stream or when it failed. */
        byte[] finish();
    }

    private final InputStream inner;
    private final Stage stage;
    private final byte[] buffer = new byte[8192];
    private byte[] out = new byte[0];
    private int outAt;
    private boolean done;
    private IOException failure;

    private RestoringBody(InputStream inner, Stage stage) {
        this.inner = inner;
        this.stage = stage;
    }

    /**
     * {@code answer} with its body restored by {@code restorer}: successful answers only (an error passes as the
     * backend wrote it), server-sent events event by event, AWS event-stream frames frame by frame, JSON whole.
     */
    static LlmProxy.Answer restore(LlmProxy.Answer answer, WireFormat format, Restorer restorer) {
        if (answer.body() == null || answer.status() < 200 || answer.status() >= 300) {
            return answer;
        }
        String type = contentType(answer.headers());
        Stage stage;
        if (type.startsWith("text/event-stream")) {
            stage = new SseRestoration(format, restorer);
        } else if (type.startsWith("application/vnd.amazon.eventstream")) {
            stage = new EventStreamRestoration(format, restorer);
        } else {
            // INVARIANT: a restorer exists only for a masked call, whose format RequestMasking.format mapped
            stage = new WholeJson(restorer, RequestMasking.format(format));
        }
        return new LlmProxy.Answer(answer.status(), answer.headers(), new RestoringBody(answer.body(), stage));
    }

    private static String contentType(Map<String, List<String>> headers) {
        return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("content-type"))
                .flatMap(e -> e.getValue().stream()).findFirst().orElse("application/json")
                .toLowerCase(Locale.ROOT).strip();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        while (outAt >= out.length) {
            if (failure != null) {
                IOException f = failure;
                failure = null;
                done = true;
                throw f;
            }
            if (done) {
                return -1;
            }
            fill();
        }
        int n = Math.min(len, out.length - outAt);
        System.arraycopy(out, outAt, b, off, n);
        outAt += n;
        return n;
    }

    /** One read of the inner body through the stage; a failed read hands on what was held, then the failure. */
    private void fill() {
        int n;
        try {
            n = inner.read(buffer, 0, buffer.length);
        } catch (IOException cut) {
            failure = cut;
            next(stage.finish());
            return;
        }
        if (n < 0) {
            done = true;
            next(stage.finish());
        } else if (n > 0) {
            byte[] chunk = new byte[n];
            System.arraycopy(buffer, 0, chunk, 0, n);
            next(stage.push(chunk));
        }
    }

    private void next(byte[] bytes) {
        out = bytes;
        outAt = 0;
    }

    @Override
    public void close() throws IOException {
        inner.close();
    }

    /** A whole JSON answer: held until its end, then restored in every string value but signed reasoning's. */
    static final class WholeJson implements Stage {
        private final Restorer restorer;
        /** The answer's wire format, which names its signed reasoning. */
        private final dev.stockade.pii.WireFormat format;
        private final ByteArrayOutputStream held = new ByteArrayOutputStream();
        private boolean passing;

        WholeJson(Restorer restorer, dev.stockade.pii.WireFormat format) {
            this.restorer = restorer;
            this.format = format;
        }

        @Override
        public byte[] push(byte[] chunk) {
            if (passing) {
                return chunk;
            }
            held.writeBytes(chunk);
            if (held.size() <= WHOLE_LIMIT) {
                return new byte[0];
            }
            passing = true; // too large to hold: it goes on as it is, placeholders included
            byte[] all = held.toByteArray();
            held.reset();
            return all;
        }

        @Override
        public byte[] finish() {
            byte[] all = held.toByteArray();
            held.reset();
            if (passing || all.length == 0) {
                return all;
            }
            try {
                return restorer.restoreJson(all, format);
            } catch (MaskingException notJson) {
                return all; // not JSON (a plain-text answer): handed on as the backend wrote it
            }
        }
    }
}
