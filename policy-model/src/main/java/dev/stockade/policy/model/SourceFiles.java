package dev.stockade.policy.model;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The one bounded reader of policy, ceiling, install and test files. A file is refused before any of it is
 * read when it is not a regular file (a folder, a device such as {@code /dev/zero}, a pipe; symbolic links
 * are followed) or when it is larger than {@link #MAX_BYTES}; it is then read through a bounded stream (a
 * file that grows while it is read is refused too) and decoded as strict UTF-8. Never throws.
 */
public final class SourceFiles {
    /** Largest file accepted, in bytes (1 MiB, the same figure as the document limit in characters). */
    public static final int MAX_BYTES = 1 << 20;

    private SourceFiles() {
    }

    /** What reading a file gave: its text, or why it could not be read. */
    public sealed interface Loaded permits Text, Unreadable {
        /** The file's name as given. */
        String name();
    }

    /** The whole file, decoded. */
    public record Text(String name, String text) implements Loaded {
    }

    /**
     * A file that cannot be read, with one line saying why; {@code line} and {@code column} are where
     * (1-based) when the reason is in the content (invalid UTF-8), else 0.
     */
    public record Unreadable(String name, String reason, int line, int column) implements Loaded {
        /** {@code name: reason} or {@code name:line:column: reason}, for a terminal. */
        public String message() {
            return line > 0 ? name + ":" + line + ":" + column + ": " + reason : name + ": " + reason;
        }
    }

    /** Reads {@code path} whole, within the bounds above. */
    public static Loaded read(Path path) {
        String name = path.toString();
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return new Unreadable(name, "no such file", 0, 0);
        } catch (AccessDeniedException e) {
            return new Unreadable(name, "permission denied", 0, 0);
        } catch (IOException | RuntimeException e) {
            return new Unreadable(name, "cannot read: " + reason(e), 0, 0);
        }
        if (attributes.isDirectory()) {
            return new Unreadable(name, "is a folder, not a file", 0, 0);
        }
        if (!attributes.isRegularFile()) {
            return new Unreadable(name, "is not a regular file (a device, pipe or socket)", 0, 0);
        }
        if (attributes.size() > MAX_BYTES) {
            return tooLarge(name, attributes.size() + " bytes");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(path)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (AccessDeniedException e) {
            return new Unreadable(name, "permission denied", 0, 0);
        } catch (IOException | RuntimeException e) {
            return new Unreadable(name, "cannot read: " + reason(e), 0, 0);
        }
        if (bytes.length > MAX_BYTES) {
            return tooLarge(name, "more than " + MAX_BYTES + " bytes");
        }
        return decode(name, bytes);
    }

    private static Unreadable tooLarge(String name, String size) {
        return new Unreadable(name, "file has " + size + ", over the limit of " + MAX_BYTES
                + " bytes (1 MiB); split it", 0, 0);
    }

    /** Strict UTF-8: an invalid sequence is named by its first byte and placed at its line and column. */
    static Loaded decode(String name, byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            out.flip();
            int line = 1;
            int column = 1;
            for (int i = 0; i < out.limit(); i++) {
                char c = out.get(i);
                if (c == '\n') {
                    line++;
                    column = 1;
                } else if (!Character.isLowSurrogate(c)) {
                    column++;
                }
            }
            int offset = in.position();
            String what = offset < bytes.length ? String.format("byte 0x%02x", bytes[offset] & 0xff) : "end of file";
            return new Unreadable(name, "invalid UTF-8 (" + what + " at byte offset " + offset
                    + "); save the file as UTF-8", line, column);
        }
        out.flip();
        return new Text(name, out.toString());
    }

    private static String reason(Exception e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
