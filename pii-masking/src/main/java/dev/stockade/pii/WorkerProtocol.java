package dev.stockade.pii;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The frames between a {@link ProcessWorker} and its child: a request is the format and the body; an answer
 * is either the masked body with its placeholders, truncations and counts, or a failure kind and message.
 */
final class WorkerProtocol {

    private static final int OK = 0;
    private static final int FAILED = 1;
    /** Largest body accepted in a frame: a corrupt length never makes the reader allocate gigabytes. */
    static final int MAX_BODY = 256 << 20;

    private WorkerProtocol() {
    }

    static void writeRequest(DataOutputStream out, WireFormat format, byte[] body) throws IOException {
        out.writeUTF(format.name());
        out.writeInt(body.length);
        out.write(body);
        out.flush();
    }

    static void writeAnswer(DataOutputStream out, MaskedBody masked) throws IOException {
        out.writeByte(OK);
        out.writeInt(masked.body().length);
        out.write(masked.body());
        Map<String, String> originals = masked.restorer().originals();
        out.writeInt(originals.size());
        for (Map.Entry<String, String> e : originals.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeUTF(e.getValue());
        }
        out.writeInt(masked.truncations().size());
        for (Truncation t : masked.truncations()) {
            out.writeUTF(t.pointer());
            out.writeInt(t.originalChars());
            out.writeInt(t.keptChars());
        }
        out.writeInt(masked.masked().size());
        for (Map.Entry<PiiType, Integer> e : masked.masked().entrySet()) {
            out.writeUTF(e.getKey().name());
            out.writeInt(e.getValue());
        }
        out.flush();
    }

    static void writeFailure(DataOutputStream out, MaskingException e) throws IOException {
        out.writeByte(FAILED);
        out.writeUTF(e.kind().name());
        out.writeUTF(e.getMessage());
        out.flush();
    }

    static byte[] readBody(DataInputStream in) throws IOException {
        int len = in.readInt();
        if (len < 0 || len > MAX_BODY) {
            throw new IOException("frame length " + len + " out of bounds");
        }
        return in.readNBytes(len);
    }

    /** The child's answer, or the failure it reported. */
    static MaskedBody readAnswer(DataInputStream in) throws IOException, MaskingException {
        if (in.readUnsignedByte() == FAILED) {
            MaskingException.Kind kind = MaskingException.Kind.valueOf(in.readUTF());
            throw new MaskingException(kind, in.readUTF());
        }
        byte[] body = readBody(in);
        Map<String, String> originals = new HashMap<>();
        for (int n = in.readInt(); n > 0; n--) {
            originals.put(in.readUTF(), in.readUTF());
        }
        List<Truncation> truncations = new ArrayList<>();
        for (int n = in.readInt(); n > 0; n--) {
            truncations.add(new Truncation(in.readUTF(), in.readInt(), in.readInt()));
        }
        Map<PiiType, Integer> counts = new EnumMap<>(PiiType.class);
        for (int n = in.readInt(); n > 0; n--) {
            counts.put(PiiType.valueOf(in.readUTF()), in.readInt());
        }
        Restorer restorer = originals.isEmpty() ? Restorer.NONE : new Restorer(originals);
        return new MaskedBody(body, restorer, truncations, counts);
    }
}
