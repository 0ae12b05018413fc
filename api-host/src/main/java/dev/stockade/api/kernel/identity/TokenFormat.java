package dev.stockade.api.kernel.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * Opaque bearer tokens: {@code stk_api_} or {@code stk_sbx_} followed by 40 base62 characters (about 238 random
 * bits), a prefix secret scanners can match ({@code stk_(api|sbx|tun|pxy)_[0-9A-Za-z]{40}}). Only the SHA-256 of a token is
 * stored: with this much entropy a slow hash adds nothing.
 */
public enum TokenFormat {
    API("stk_api_"),
    SANDBOX("stk_sbx_"),
    /** A cluster relay's tunnel token (k8s slice); never a bearer token of the REST API. */
    TUNNEL("stk_tun_"),
    /** A separate egress proxy replica's token for the proxy feed. */
    PROXY("stk_pxy_");

    private static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final int LENGTH = 40;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String prefix;

    TokenFormat(String prefix) {
        this.prefix = prefix;
    }

    public String prefix() {
        return prefix;
    }

    /** A fresh token of this kind. */
    public String mint() {
        StringBuilder b = new StringBuilder(prefix);
        for (int i = 0; i < LENGTH; i++) {
            b.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }

    /** Whether {@code token} has this kind's shape (checked before any look-up). */
    public boolean matches(String token) {
        if (token.length() != prefix.length() + LENGTH || !token.startsWith(prefix)) {
            return false;
        }
        for (int i = prefix.length(); i < token.length(); i++) {
            char c = token.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
                return false;
            }
        }
        return true;
    }

    /** What lists show of a token: its kind prefix and four characters. */
    public static String display(String token) {
        return token.substring(0, Math.min(token.length(), 12)) + "…";
    }

    public static byte[] hash(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
