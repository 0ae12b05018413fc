package dev.stockade.policy.glob;

import com.ibm.icu.text.IDNA;

/**
 * Internationalised names to ASCII, the one IDNA of Stockade: UTS #46 with non-transitional processing
 * (IDNA2008), as browsers and curl send names, through ICU4J. The JDK's {@code java.net.IDN} is
 * IDNA2003, which maps {@code ß} to {@code ss} and so would make {@code straße.example} mean another
 * domain than the one clients reach ({@code xn--strae-oqa.example}).
 */
public final class Idna {
    private static final IDNA UTS46 = IDNA.getUTS46Instance(IDNA.NONTRANSITIONAL_TO_ASCII | IDNA.CHECK_BIDI
            | IDNA.CHECK_CONTEXTJ);

    private Idna() {
    }

    /**
     * The ASCII form (lower case, {@code xn--} labels) of a name or a single label; {@code null} when
     * UTS #46 reports any error (disallowed code points, bad punycode, bidi or joiner rules, empty labels).
     */
    public static String toAscii(String name) {
        StringBuilder out = new StringBuilder(name.length() + 8);
        IDNA.Info info = new IDNA.Info();
        UTS46.nameToASCII(name, out, info);
        return info.hasErrors() ? null : out.toString();
    }
}
