package dev.stockade.api.kernel.web;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * Every text body (JSON, YAML, plain text, forms) is UTF-8, decoded strictly before any route reads it: a malformed
 * sequence, an overlong form or a UTF-8-encoded surrogate is refused as {@code malformed_json} naming its byte offset,
 * where the framework's decoding would have put U+FFFD in its place and stored that. A declared charset other than
 * UTF-8 is refused as {@code unsupported_media_type}. Bodies of other media types (the cluster proxy's protobuf) pass
 * as bytes.
 */
@ServerFilter(value = ServerFilter.MATCH_ALL_PATTERN, methods = {HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
        HttpMethod.DELETE})
final class Utf8Bodies implements Ordered {
    private final Problems problems;

    Utf8Bodies(Problems problems) {
        this.problems = problems;
    }

    /** After the access filter: a caller who may not send the request learns nothing from its body. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 200;
    }

    @RequestFilter
    @Nullable
    HttpResponse<?> check(HttpRequest<?> request, @Nullable @Body byte[] body) {
        Optional<MediaType> type = request.getContentType();
        if (body == null || body.length == 0 || type.isPresent() && !textual(type.get())) {
            return null;
        }
        String charset = type.map(t -> t.getParameters().get("charset").orElse(null)).orElse(null);
        if (charset != null && !charset.equalsIgnoreCase("utf-8") && !charset.equalsIgnoreCase("utf8")) {
            return problems.response(ProblemCode.UNSUPPORTED_MEDIA_TYPE, "send the body in UTF-8 (`charset=utf-8`)");
        }
        long offset = firstMalformed(body);
        return offset < 0 ? null : problems.response(ProblemCode.MALFORMED_JSON,
                "the body is not valid UTF-8 at byte offset " + offset);
    }

    /** Whether a body of this media type is text the platform decodes. */
    static boolean textual(MediaType type) {
        String main = type.getType().toLowerCase(Locale.ROOT);
        String sub = type.getSubtype().toLowerCase(Locale.ROOT);
        return main.equals("text") || sub.equals("json") || sub.endsWith("+json") || sub.equals("yaml")
                || sub.equals("x-yaml") || sub.equals("x-www-form-urlencoded");
    }

    /** The offset of the first byte that does not start a well-formed UTF-8 sequence, or -1 when all are well formed. */
    static long firstMalformed(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(4096);
        while (true) {
            CoderResult r = decoder.decode(in, out, true);
            if (r.isError()) {
                return in.position();
            }
            if (r.isUnderflow()) {
                out.clear();
                r = decoder.flush(out);
                return r.isError() ? in.position() : -1;
            }
            out.clear();
        }
    }
}
