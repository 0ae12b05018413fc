package dev.stockade.api.signin;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.StringJoiner;

/** {@code application/x-www-form-urlencoded}, as the token endpoint of an identity provider reads it. */
final class FormEncoding {
    private FormEncoding() {
    }

    static String encode(Map<String, String> fields) {
        StringJoiner j = new StringJoiner("&");
        fields.forEach((k, v) -> j.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return j.toString();
    }
}
