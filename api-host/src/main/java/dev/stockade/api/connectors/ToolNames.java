package dev.stockade.api.connectors;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import java.util.UUID;

/**
 * How a connector tool is named on the MCP endpoint: {@code <connector>__<tool>}, at most 64 characters (spec:
 * Limits), characters outside {@code [A-Za-z0-9_.-]} replaced by {@code _}. A name over 64 characters, or one already
 * taken in the same list (two connectors of the same name in different projects, or two tools that differ only in
 * replaced characters), keeps its first 55 characters and ends with {@code _} and 8 hex digits of a SHA-256 of the
 * connector id and the tool's own name, so it is stable across lists and restarts.
 */
public final class ToolNames {
    public static final int MAX = 64;
    static final String SEPARATOR = "__";

    private ToolNames() {
    }

    /** The exposed name of {@code tool} of connector {@code connectorId} named {@code connectorName}. */
    public static String exposed(UUID connectorId, String connectorName, String tool, Set<String> taken) {
        String plain = connectorName + SEPARATOR + tool.replaceAll("[^A-Za-z0-9_.-]", "_");
        if (plain.length() <= MAX && !taken.contains(plain)) {
            return plain;
        }
        String hashed = plain.substring(0, Math.min(plain.length(), MAX - 9)) + "_" + hash(connectorId, tool);
        return taken.contains(hashed) ? hashed.substring(0, MAX - 9) + "_" + hash(connectorId, tool + "\0") : hashed;
    }

    private static String hash(UUID connectorId, String tool) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest((connectorId + "\0" + tool)
                    .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
