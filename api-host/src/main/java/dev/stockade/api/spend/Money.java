package dev.stockade.api.spend;

import dev.stockade.api.kernel.web.ApiProblem;
import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * Amounts of money: integer micro-USD inside the platform (sums are exact), decimal strings in USD at the API
 * ({@code "12.5"} in, {@code "12.500000"} out). Never a binary floating-point number.
 */
public final class Money {
    /** The largest amount accepted: one billion USD, far below overflow of a sum of micro-USD in a long. */
    public static final long MAX_MICROS = 1_000_000_000L * 1_000_000L;
    private static final Pattern USD = Pattern.compile("[0-9]{1,10}(\\.[0-9]{1,6})?");

    private Money() {
    }

    /** {@code usd} (a decimal string, up to six decimals) in micro-USD; a validation problem at {@code pointer}. */
    public static long parseUsd(String pointer, String usd) {
        if (usd == null || !USD.matcher(usd).matches()) {
            throw ApiProblem.invalid(pointer, "invalid", "`" + pointer.substring(1) + "` must be a decimal string of"
                    + " USD with at most six decimals, such as `25` or `0.50`");
        }
        long micros = new BigDecimal(usd).movePointRight(6).longValueExact();
        if (micros > MAX_MICROS) {
            throw ApiProblem.invalid(pointer, "range", "`" + pointer.substring(1) + "` must be at most 1000000000");
        }
        return micros;
    }

    /** Micro-USD as a USD decimal string with six decimals. */
    public static String usd(long micros) {
        return BigDecimal.valueOf(micros, 6).toPlainString();
    }
}
